//! What each command said of a workflow's or task's last run, read into
//! one shape (`Row`) for the matrix of `moments.rs`, and the rule
//! of agreement. A field a command does not have stays `None` and is left
//! out of the comparison, never filled in.

use serde_json::Value;

/// What one command said: absent fields are ones it does not have.
#[derive(Debug, Clone, Default)]
pub(crate) struct Row {
    pub(crate) what: &'static str,
    pub(crate) verdict: Option<String>,
    pub(crate) evidence: Option<Value>,
    pub(crate) duration_ms: Option<f64>,
    pub(crate) elapsed: Option<Value>,
    pub(crate) started: Option<i64>,
    pub(crate) ended: Option<i64>,
    /// The start and end as written, and the task count, by the commands
    /// that write them.
    pub(crate) texts: Option<(Value, Value, Value)>,
}

pub(crate) fn secs(v: &Value) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(v.as_str()?)
        .ok()
        .map(|t| t.timestamp())
}

pub(crate) fn parse(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or(Value::Null)
}

pub(crate) fn from_last(v: &Value) -> Row {
    let verdict = match (v["last_run"].as_str(), v["is_successful"].as_bool()) {
        (Some("found"), Some(true)) => "succeeded",
        (Some("found"), Some(false)) => "failed",
        (Some("unsettled" | "running"), _) => "running",
        (Some(w), _) => w,
        _ => "no answer",
    };
    let found = v["last_run"] == "found";
    Row {
        what: "last-run",
        verdict: Some(verdict.into()),
        evidence: Some(v["evidence"].clone()),
        duration_ms: found.then(|| v["duration"].as_f64()).flatten(),
        elapsed: found.then(|| v["elapsed"].clone()),
        started: secs(&v["started"]),
        ended: found.then(|| secs(&v["ended"])).flatten(),
        texts: found.then(|| (v["started"].clone(), v["ended"].clone(), v["tasks"].clone())),
    }
}

pub(crate) fn from_status(v: &Value) -> Row {
    let v = match v {
        Value::Array(a) => a.first().cloned().unwrap_or(Value::Null),
        v => v.clone(),
    };
    let verdict = match (
        v["run_in_progress"].as_bool(),
        v["last_run_successful"].as_bool(),
    ) {
        (Some(true), _) => "running",
        (_, Some(true)) => "succeeded",
        (_, Some(false)) => "failed",
        _ => "no answer",
    };
    Row {
        what: "status -o json",
        verdict: Some(verdict.into()),
        ended: secs(&v["last_run_at"]),
        ..Row::default()
    }
}

pub(crate) fn from_check(v: &Value) -> Row {
    let msg = v["message"].as_str().unwrap_or("");
    let verdict = match v["state"].as_str() {
        _ if msg.contains("in progress") || msg.contains("not settled") => "running",
        Some("OK") => "succeeded",
        Some("CRITICAL") if msg.contains("failed") => "failed",
        _ => "no answer",
    };
    Row {
        what: "check",
        verdict: Some(verdict.into()),
        duration_ms: v["perfdata"]["duration"]["value"]
            .as_f64()
            .map(|s| s * 1000.0),
        ..Row::default()
    }
}

/// A gauge of `id` in an exposition.
pub(crate) fn gauge(text: &str, name: &str, id: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(&format!("{name}{{")) && l.contains(&format!("uuid=\"{id}\"")))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
}

pub(crate) fn from_exposition(what: &'static str, text: &str, id: &str) -> Row {
    let verdict = match (
        gauge(text, "ylem_run_in_progress", id),
        gauge(text, "ylem_last_run_success", id),
    ) {
        (Some(1.0), _) => "running",
        (_, Some(1.0)) => "succeeded",
        (_, Some(_)) => "failed",
        _ => "no answer",
    };
    Row {
        what,
        verdict: Some(verdict.into()),
        duration_ms: gauge(text, "ylem_last_run_duration_seconds", id).map(|s| s * 1000.0),
        ended: gauge(text, "ylem_last_run_timestamp_seconds", id).map(|s| s as i64),
        ..Row::default()
    }
}

/// The stream's latest word on `id`: a run opened (running) or closed.
pub(crate) fn from_events(events: &[Value], id: &str) -> Option<Row> {
    let e = events
        .iter()
        .rev()
        .find(|e| e["id"] == id && (e["event"] == "run_started" || e["event"] == "run_finished"))?;
    if e["event"] == "run_started" {
        return Some(Row {
            what: "watch -o jsonl",
            verdict: Some("running".into()),
            ..Row::default()
        });
    }
    Some(Row {
        what: "watch -o jsonl",
        verdict: e["verdict"].as_str().map(String::from),
        evidence: Some(e["evidence"].clone()),
        duration_ms: e["duration"].as_f64(),
        elapsed: Some(e["elapsed"].clone()),
        started: secs(&e["started"]),
        ended: secs(&e["ended"]),
        texts: Some((e["started"].clone(), e["ended"].clone(), e["tasks"].clone())),
    })
}

/// One verdict; with `strict`, one evidence and one set of times too (the
/// duration to the check's 10 ms).
pub(crate) fn agree(rows: &[Row], strict: bool) -> bool {
    fn same<T: PartialEq>(rows: &[Row], f: impl Fn(&Row) -> Option<T>) -> bool {
        let v: Vec<T> = rows.iter().filter_map(f).collect();
        v.windows(2).all(|w| w[0] == w[1])
    }
    let durations: Vec<f64> = rows.iter().filter_map(|r| r.duration_ms).collect();
    let close = durations.windows(2).all(|w| (w[0] - w[1]).abs() <= 5.0);
    same(rows, |r| r.verdict.clone())
        && (!strict
            || (close
                && same(rows, |r| r.evidence.clone())
                && same(rows, |r| r.elapsed.clone())
                && same(rows, |r| r.started)
                && same(rows, |r| r.ended)
                && same(rows, |r| r.texts.clone())))
}
