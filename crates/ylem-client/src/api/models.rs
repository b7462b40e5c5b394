//! Typed models of the service's responses, under the spec's field names,
//! tolerant of the open-source server's variants (github.com/ylem-co/ylem),
//! and checked against the spec's types where the tool relies on them: a
//! timestamp is a real time, counts and durations are not negative, a run
//! UUID is a UUID (a failing field is named by the decoder: exit 5).

use std::borrow::Cow;

use serde::{Deserialize, Deserializer};
use serde_json::{Number, Value};

use crate::time;

/// A timestamp as the server sent it, normalised to `YYYY-MM-DDTHH:MM:SSZ`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timestamp(pub String);

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        timestamp(String::deserialize(d)?)
    }
}

/// `s` as a `Timestamp` if it is a time (`2026-02-30`, `yesterday-ish`
/// are not), of a year the tool can compute a window around (1..=9998:
/// a day after 9999-12-31 is a year no request can name).
fn timestamp<E: serde::de::Error>(s: String) -> Result<Timestamp, E> {
    use chrono::Datelike;
    match time::parse_server_time(&s) {
        Some(t) if (1..=9998).contains(&t.year()) => {
            Ok(Timestamp(time::normalize_server_time_owned(s)))
        }
        Some(_) => Err(E::custom(format!(
            "\"{}\" is out of range (years 1 to 9998)",
            crate::text::escape(&s)
        ))),
        None => Err(E::custom(format!(
            "\"{}\" is not a timestamp",
            crate::text::escape(&s)
        ))),
    }
}

/// A count or a duration: an integer, 0 or more.
pub(crate) fn non_negative<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let n = i64::deserialize(d)?;
    if n < 0 {
        return Err(serde::de::Error::custom(format!("{n} is negative")));
    }
    Ok(n)
}

impl Timestamp {
    /// As a time, if it is one.
    pub fn parsed(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        time::parse_server_time(&self.0)
    }
}

/// `0001-01-01 00:00:00` is how the server says "never".
fn never_is_none<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
    let s: Option<String> = Option::deserialize(d)?;
    s.filter(|s| !s.is_empty() && !s.starts_with("0001-01-01"))
        .map(timestamp)
        .transpose()
}

/// An optional timestamp: `null` and `""` (as in the spec's sample) are none.
fn opt_timestamp<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
    let s: Option<String> = Option::deserialize(d)?;
    s.filter(|s| !s.is_empty()).map(timestamp).transpose()
}

/// 2.2: a run record returned by a run start.
#[derive(Debug, Clone, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The record's number.
    #[serde(default)]
    pub id: Option<i64>,
    /// The task run's state (`pending`, ...).
    #[serde(default)]
    pub state: Option<String>,
    /// The task.
    #[serde(default)]
    pub task_uuid: Option<String>,
    /// The task's run.
    #[serde(default)]
    pub task_run_uuid: Option<String>,
    /// The run (`pipeline_run_uuid` from the real server).
    #[serde(alias = "pipeline_run_uuid")]
    pub workflow_run_uuid: String,
    /// Whether it succeeded.
    #[serde(default)]
    pub is_successful: Option<bool>,
    /// What it printed.
    #[serde(default)]
    pub output: Option<String>,
    /// Its errors, as sent.
    #[serde(default)]
    pub errors: Option<Value>,
    /// When the record was made.
    #[serde(default, deserialize_with = "opt_timestamp")]
    pub created_at: Option<Timestamp>,
    /// When it last changed.
    #[serde(default, deserialize_with = "opt_timestamp")]
    pub updated_at: Option<Timestamp>,
}

/// What a run start returns: the spec's array, or the real server's object.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum RunStart {
    /// The spec's array of run records.
    Records(Vec<RunRecord>),
    /// The open-source server's object.
    Object {
        /// The run.
        pipeline_run_uuid: String,
    },
}

impl RunStart {
    /// The run's UUID, whichever form arrived.
    pub fn run_uuid(&self) -> Option<&str> {
        match self {
            RunStart::Records(r) => r.first().map(|r| r.workflow_run_uuid.as_str()),
            RunStart::Object { pipeline_run_uuid } => Some(pipeline_run_uuid),
        }
    }

    /// What is wrong with the run UUID the start answered, if anything:
    /// none, one that is not a UUID (the tool would poll it), or records
    /// naming two runs (one start is one run: which to follow?). Escaped.
    pub(crate) fn run_uuid_problem(&self) -> Option<String> {
        let shown = |u: &str| format!("\"{}\"", crate::text::escape(u));
        let field = match self {
            RunStart::Records(_) => "workflow_run_uuid",
            RunStart::Object { .. } => "pipeline_run_uuid",
        };
        match self.run_uuid() {
            None => return Some("no run UUID".into()),
            Some(u) if uuid::Uuid::try_parse(u).is_err() => {
                return Some(format!("{field} {} (not a UUID)", shown(u)));
            }
            Some(_) => {}
        }
        let other = self.other_run_uuid()?;
        Some(format!(
            "records of two runs, {} and {}: one start is one run",
            shown(self.run_uuid().unwrap_or_default()),
            shown(other)
        ))
    }

    /// The run UUIDs of the records other than the first's: one start is
    /// one run, so a second UUID means the answer cannot be trusted.
    pub(crate) fn other_run_uuid(&self) -> Option<&str> {
        let RunStart::Records(r) = self else {
            return None;
        };
        let first = r.first()?.workflow_run_uuid.as_str();
        (r.iter().map(|r| r.workflow_run_uuid.as_str())).find(|u| !u.eq_ignore_ascii_case(first))
    }
}

/// 2.3: a run log entry, owned (see `LogEntryRef` for the one decoded).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LogEntry {
    /// The run (`pipeline_run_uuid` from the real server).
    pub workflow_run_uuid: String,
    /// The task.
    pub task_uuid: String,
    /// The kind of task (`query`, `condition`, ...).
    pub task_type: String,
    /// Whether it succeeded.
    pub is_successful: bool,
    /// Milliseconds.
    pub duration: i64,
    /// `null` and absent are both "".
    pub output: String,
    /// A number that the real server may send fractional.
    pub metric_value: Option<Number>,
    /// When it ran.
    pub executed_at: Timestamp,
}

/// 2.3: a run log entry as decoded. Its text borrows from the response
/// buffer where the JSON had no escape, so an output of 50 MiB is neither
/// copied nor unescaped on its way through.
#[derive(Debug, Clone, Deserialize)]
#[non_exhaustive]
pub struct LogEntryRef<'a> {
    /// The run (`pipeline_run_uuid` from the real server).
    #[serde(alias = "pipeline_run_uuid", borrow)]
    pub workflow_run_uuid: Text<'a>,
    /// The task.
    #[serde(borrow)]
    pub task_uuid: Text<'a>,
    /// The kind of task (`query`, `condition`, ...).
    #[serde(borrow)]
    pub task_type: Text<'a>,
    /// Whether it succeeded.
    pub is_successful: bool,
    /// Milliseconds.
    pub duration: i64,
    /// `null` and absent are both "no output".
    #[serde(default, borrow)]
    pub output: Option<Text<'a>>,
    /// A number that the real server may send fractional.
    #[serde(default)]
    pub metric_value: Option<Number>,
    /// As sent: see `executed_at()` for the normalised form.
    #[serde(borrow, rename = "executed_at")]
    pub executed_at_raw: Text<'a>,
}

impl LogEntryRef<'_> {
    /// What is not of the spec's types among the fields the tool relies on
    /// (the run and task UUIDs, the time, the duration), named with the
    /// value escaped; `None` when all are.
    pub fn problem(&self) -> Option<String> {
        let shown = |v: &str| crate::text::escape(v).into_owned();
        for (field, v) in [
            ("workflow_run_uuid", self.workflow_run_uuid.as_str()),
            ("task_uuid", self.task_uuid.as_str()),
        ] {
            if uuid::Uuid::try_parse(v).is_err() {
                return Some(format!("{field} \"{}\" is not a UUID", shown(v)));
            }
        }
        if let Err(e) = timestamp::<serde::de::value::Error>(self.executed_at_raw.as_str().into()) {
            return Some(format!("executed_at {e}"));
        }
        if self.duration < 0 {
            return Some(format!("duration {} is negative", self.duration));
        }
        None
    }

    /// `executed_at` normalised to `YYYY-MM-DDTHH:MM:SSZ`; borrowed when it
    /// is in that form already (every entry of the spec's server).
    pub fn executed_at(&self) -> Text<'_> {
        let s = self.executed_at_raw.as_str();
        if time::is_normal_form(s.as_bytes()) {
            self.executed_at_raw.reborrow()
        } else {
            Text::owned(time::normalize_server_time(s))
        }
    }

    /// The output, "" for none.
    pub fn output(&self) -> &str {
        self.output.as_ref().map_or("", Text::as_str)
    }

    /// The same entry, its text copied out of the response buffer (kept
    /// across polls of a followed log).
    pub fn into_static(self) -> LogEntryRef<'static> {
        let own = |t: Text| Text::owned(t.as_str().to_string());
        LogEntryRef {
            workflow_run_uuid: own(self.workflow_run_uuid),
            task_uuid: own(self.task_uuid),
            task_type: own(self.task_type),
            is_successful: self.is_successful,
            duration: self.duration,
            output: self.output.map(own),
            metric_value: self.metric_value,
            executed_at_raw: own(self.executed_at_raw),
        }
    }

    /// The entry with its text copied out of the response buffer.
    pub fn to_owned_entry(&self) -> LogEntry {
        LogEntry {
            workflow_run_uuid: self.workflow_run_uuid.as_str().into(),
            task_uuid: self.task_uuid.as_str().into(),
            task_type: self.task_type.as_str().into(),
            is_successful: self.is_successful,
            duration: self.duration,
            output: self.output().into(),
            metric_value: self.metric_value.clone(),
            executed_at: Timestamp(self.executed_at().as_str().into()),
        }
    }
}

/// A JSON string of a response. `Borrowed` only when the JSON had no
/// escape in it: then the text has no `"`, `\` or control character
/// either (JSON allows none unescaped), and is written out as JSON again
/// as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text<'a>(Cow<'a, str>);

impl<'a> Text<'a> {
    /// Text that may need escaping.
    pub fn owned(s: String) -> Self {
        Text(Cow::Owned(s))
    }

    /// Text that had no escape in its JSON (see the type): only for the
    /// decoder, which has checked that.
    pub(super) fn unescaped(s: &'a str) -> Self {
        Text(Cow::Borrowed(s))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True when JSON needs no escape for this text (see the type).
    pub fn is_plain(&self) -> bool {
        matches!(self.0, Cow::Borrowed(_))
    }

    fn reborrow(&self) -> Text<'_> {
        match &self.0 {
            Cow::Borrowed(s) => Text(Cow::Borrowed(s)),
            Cow::Owned(s) => Text(Cow::Owned(s.clone())),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text::owned(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Text<'de>, E> {
                Ok(Text::owned(s))
            }
        }
        d.deserialize_str(V)
    }
}

/// 2.4: consolidated statistics over a range.
#[derive(Debug, Clone, Deserialize)]
#[non_exhaustive]
pub struct RangeStats {
    /// Successful runs.
    #[serde(deserialize_with = "non_negative")]
    pub num_of_successes: i64,
    /// Failed runs.
    #[serde(deserialize_with = "non_negative")]
    pub num_of_failures: i64,
    /// Their average duration, in milliseconds.
    #[serde(deserialize_with = "non_negative")]
    pub average_duration: i64,
    /// Whether the last run succeeded.
    pub is_last_run_successful: bool,
    /// When the last run ran (`None`: never).
    #[serde(deserialize_with = "never_is_none")]
    pub last_run_executed_at: Option<Timestamp>,
    /// The last run's duration, in milliseconds.
    #[serde(deserialize_with = "non_negative")]
    pub last_run_duration: i64,
}

/// 2.5: one period of aggregated statistics.
#[derive(Debug, Clone, Deserialize)]
#[non_exhaustive]
pub struct Aggregated {
    /// The period's first day.
    pub date_from: Timestamp,
    /// The period's end.
    pub date_to: Timestamp,
    /// Successful runs.
    #[serde(deserialize_with = "non_negative")]
    pub num_of_successes: i64,
    /// Failed runs.
    #[serde(deserialize_with = "non_negative")]
    pub num_of_failures: i64,
    /// Their average duration, in milliseconds.
    #[serde(deserialize_with = "non_negative")]
    pub average_duration: i64,
}

impl Aggregated {
    /// A period from `date_from` to `date_to` with no run: what a period
    /// the server left out of its answer held.
    pub fn empty(date_from: Timestamp, date_to: Timestamp) -> Self {
        Aggregated {
            date_from,
            date_to,
            num_of_successes: 0,
            num_of_failures: 0,
            average_duration: 0,
        }
    }
}

/// 2.6: statistics of the last run. The API layer returns `None` in place
/// of this when the server says the subject never ran.
#[derive(Debug, Clone, Deserialize)]
#[non_exhaustive]
pub struct LastRun {
    /// Whether it succeeded.
    pub is_successful: bool,
    /// When it ran.
    #[serde(deserialize_with = "never_is_none")]
    pub executed_at: Option<Timestamp>,
    /// Milliseconds.
    #[serde(deserialize_with = "non_negative")]
    pub duration: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_entry_accepts_both_run_uuid_names_and_fractional_metrics() {
        let spec = r#"{"workflow_run_uuid":"a","task_uuid":"b","task_type":"query","is_successful":true,"duration":5,"output":"","metric_value":3,"executed_at":"2024-01-13T18:36:58Z"}"#;
        let ylem = r#"{"pipeline_run_uuid":"a","task_uuid":"b","task_type":"query","is_successful":true,"duration":5,"output":"","metric_value":1.5,"executed_at":"2024-01-13T18:36:58.12Z"}"#;
        let a: LogEntryRef = serde_json::from_str(spec).unwrap();
        let b: LogEntryRef = serde_json::from_str(ylem).unwrap();
        assert_eq!(a.workflow_run_uuid, b.workflow_run_uuid);
        assert_eq!(b.metric_value.as_ref().unwrap().to_string(), "1.5");
        assert_eq!(b.executed_at().as_str(), "2024-01-13T18:36:58.12Z");
        assert!(a.executed_at().is_plain());
    }

    #[test]
    fn run_start_accepts_both_forms() {
        const W: &str = "3f2c1a9e-6b7d-4e21-9c0a-1d2e3f4a5b6c";
        let o: RunStart =
            serde_json::from_str(&format!(r#"{{"pipeline_run_uuid":"{W}"}}"#)).unwrap();
        assert_eq!(o.run_uuid(), Some(W));
        let a: RunStart = serde_json::from_str(&format!(
            r#"[{{"id":1,"state":"pending","task_uuid":"t","task_run_uuid":"r","workflow_run_uuid":"{W}","is_successful":false,"output":null,"errors":null,"created_at":"","updated_at":""}}]"#,
        ))
        .unwrap();
        assert_eq!(a.run_uuid(), Some(W));
        assert_eq!(a.other_run_uuid(), None);
    }

    #[test]
    fn never_ran_is_none() {
        let s: RangeStats = serde_json::from_str(r#"{"num_of_successes":0,"num_of_failures":0,"average_duration":0,"is_last_run_successful":false,"last_run_executed_at":"0001-01-01 00:00:00","last_run_duration":0}"#).unwrap();
        assert!(s.last_run_executed_at.is_none());
    }

    #[test]
    fn missing_field_is_named() {
        let e = serde_json::from_str::<RangeStats>(r#"{"num_of_successes":0}"#).unwrap_err();
        assert!(e.to_string().contains("num_of_failures"), "{e}");
    }

    #[test]
    fn what_is_not_of_the_spec_s_type_is_refused_naming_the_field() {
        let stats = |field: &str, v: &str| {
            let mut j: serde_json::Value = serde_json::from_str(r#"{"num_of_successes":1,"num_of_failures":0,"average_duration":5,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":5}"#).unwrap();
            j[field] = serde_json::from_str(v).unwrap();
            crate::http::errors::decode_json::<RangeStats>(j.to_string().as_bytes())
        };
        assert!(stats("num_of_failures", "0").is_ok());
        for (field, v, says) in [
            (
                "last_run_executed_at",
                r#""yesterday-ish""#,
                r#""yesterday-ish" is not a timestamp"#,
            ),
            (
                "last_run_executed_at",
                r#""2026-02-30 10:00:00""#,
                "is not a timestamp",
            ),
            (
                "last_run_executed_at",
                r#""9999-12-31 10:00:00""#,
                "out of range",
            ),
            ("last_run_executed_at", r#""x\u001b[2J""#, r#""x\u{1b}[2J""#),
            ("num_of_failures", "-3", "-3 is negative"),
            ("average_duration", "-9223372036854775808", "is negative"),
            ("last_run_duration", "-1", "-1 is negative"),
        ] {
            let e = stats(field, v).unwrap_err();
            assert!(
                e.contains(&format!("field `{field}`")) && e.contains(says),
                "{v}: {e}"
            );
        }
    }

    #[test]
    fn a_start_with_two_run_uuids_is_told() {
        let rec = |w: &str| format!(r#"{{"workflow_run_uuid":"{w}"}}"#);
        let (a, b) = (
            "3f2c1a9e-6b7d-4e21-9c0a-1d2e3f4a5b6c",
            "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        );
        let two: RunStart = serde_json::from_str(&format!("[{},{}]", rec(a), rec(b))).unwrap();
        assert_eq!(two.other_run_uuid(), Some(b));
        let same: RunStart = serde_json::from_str(&format!("[{},{}]", rec(a), rec(a))).unwrap();
        assert_eq!(same.other_run_uuid(), None);
    }
}
