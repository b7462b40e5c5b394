//! `-o junit` for `run pipeline --wait` and `runs P --run R [--wait]`: a
//! pipeline run as a JUnit test suite (`crate::output::junit` writes it).
//! One test case per task entry, in execution order (time = its duration;
//! a failed one's `<failure>` carries its error messages, decoded as every
//! command decodes a failure); the tasks of the history's task set that did
//! not run are `<skipped>`; a run that has not ended (still running, the
//! wait ran out) has one `<error>` case saying so, as has a run whose log
//! could not be read again after its wait (`unread`: the failed tasks the
//! wait kept, then the error), and a start that failed (one of several
//! IDs) is a suite with one `<error>` case. The suite's
//! time is the run's elapsed time and its timestamp the run's start, by
//! the run model's rule (first task's `executed_at - duration` to the last
//! task's end).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::commands::kit::failure_text::TaskText;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::junit::{Case, CaseResult, Suite, render};
use crate::output::table;
use crate::time::Window;
use ylem_client::api::Client;
use ylem_client::api::models::LogEntry;
use ylem_client::runs::failure::Finder;

/// How a run stands when its report is written.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    Succeeded,
    Failed,
    /// Not ended: why, in words (running, the wait ran out).
    Open(String),
}

/// One run to report.
pub struct Report<'a> {
    pub pipeline: Uuid,
    pub run: &'a str,
    /// Its entries in execution order (`execution_order`).
    pub entries: &'a [LogEntry],
    /// The task UUIDs of the pipeline's recent complete runs, when they all
    /// had the same ones (the evidence rule's task set).
    pub graph: Option<&'a [String]>,
    /// Task types by task UUID (lower case), from the history look-up:
    /// a skipped task is named as the runs that reached it name it.
    pub types: Option<&'a BTreeMap<String, String>>,
    pub end: End,
    /// How success was established, when it was (`evidence`'s words).
    pub evidence: Option<String>,
}

/// The pipeline as the report names it: its alias, else its UUID.
fn pipeline_name(finder: &Finder, id: Uuid) -> String {
    let uuid = id.to_string();
    table::escape(finder.name_of(&uuid).unwrap_or(&uuid))
}

/// A task as the report names it: its alias, else its UUID.
fn task_name(finder: &Finder, task_uuid: &str) -> String {
    table::escape(finder.name_of(task_uuid).unwrap_or(task_uuid))
}

/// The start of the first task and the end of the last (`executed_at` is
/// when a task ended), as `ylem_client::runs::fold` counts them.
fn span(entries: &[LogEntry]) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let times = entries.iter().filter_map(|e| {
        let end = e.executed_at.parsed()?;
        Some((end - chrono::Duration::milliseconds(e.duration), end))
    });
    times.fold(None, |acc, (s, e)| match acc {
        None => Some((s, e)),
        Some((a, b)) => Some((a.min(s), b.max(e))),
    })
}

/// The suite of one run.
pub fn suite(finder: &Finder, r: &Report) -> Suite {
    let class = pipeline_name(finder, r.pipeline);
    // Oldest first (`execution_order`; sorted again, stably, for a caller's
    // list that is not).
    let mut entries: Vec<&LogEntry> = r.entries.iter().collect();
    entries.sort_by_key(|e| e.executed_at.parsed());
    let mut cases: Vec<Case> = entries
        .iter()
        .map(|e| Case {
            classname: class.clone(),
            name: format!(
                "{} ({})",
                task_name(finder, &e.task_uuid),
                table::escape(&e.task_type)
            ),
            time_ms: e.duration,
            result: match e.is_successful {
                true => CaseResult::Passed,
                false => {
                    let messages = finder.task(e).messages();
                    CaseResult::Failed {
                        message: messages.join("; "),
                        text: messages.join("\n"),
                    }
                }
            },
        })
        .collect();
    let why_skipped = match &r.end {
        End::Open(_) => "not reported yet: the run had not ended",
        _ => "not run: the pipeline's recent complete runs ran it, this run did not",
    };
    for task in r.graph.unwrap_or_default() {
        if !entries
            .iter()
            .any(|e| e.task_uuid.eq_ignore_ascii_case(task))
        {
            let name = match r.types.and_then(|t| t.get(&task.to_ascii_lowercase())) {
                Some(ty) => format!("{} ({})", task_name(finder, task), table::escape(ty)),
                None => task_name(finder, task),
            };
            cases.push(Case {
                classname: class.clone(),
                name,
                time_ms: 0,
                result: CaseResult::Skipped {
                    message: why_skipped.into(),
                },
            });
        }
    }
    if let End::Open(why) = &r.end {
        cases.push(Case {
            classname: class.clone(),
            name: format!("run {}", table::escape(r.run)),
            time_ms: 0,
            result: CaseResult::Error {
                message: why.clone(),
                text: why.clone(),
            },
        });
    }
    let span = span(r.entries);
    let verdict = match &r.end {
        End::Succeeded => "succeeded",
        End::Failed => "failed",
        End::Open(_) => "running",
    };
    let mut properties = vec![
        ("pipeline_uuid".to_string(), r.pipeline.to_string()),
        // The server's text, escaped as the task names are.
        ("run_uuid".to_string(), table::escape(r.run)),
        ("result".to_string(), verdict.to_string()),
    ];
    if let Some(e) = &r.evidence {
        properties.push(("evidence".into(), e.clone()));
    }
    Suite {
        name: class,
        timestamp: span.map(|(s, _)| s.format("%Y-%m-%dT%H:%M:%S").to_string()),
        time_ms: span.map_or(0, |(s, e)| (e - s).num_milliseconds()),
        properties,
        cases,
    }
}

/// The suite of a start that failed (one of several IDs): its error as
/// the one case, so a CI report shows the pipeline that did not run.
pub fn refused(finder: &Finder, pipeline: Uuid, e: &Error) -> Suite {
    let class = pipeline_name(finder, pipeline);
    let message = format!("{}: {}", e.kind.name(), crate::redact::scrub(&e.message));
    Suite {
        name: class.clone(),
        timestamp: None,
        time_ms: 0,
        properties: vec![("pipeline_uuid".into(), pipeline.to_string())],
        cases: vec![Case {
            classname: class,
            name: "start".into(),
            time_ms: 0,
            result: CaseResult::Error {
                text: message.clone(),
                message,
            },
        }],
    }
}

/// The suite of a run whose log could not be read again after its wait
/// (`r` holds the failed entries the wait kept, and no task set: which
/// tasks did not run cannot be told): those entries, and an `<error>`
/// case saying the rest is missing, so that a CI report still shows the
/// run, how it ended and why, and that its list of tasks is short. Its
/// time is the run's elapsed time as the wait saw it; no timestamp (its
/// first task is not known).
pub fn unread(finder: &Finder, r: &Report, elapsed_ms: i64, e: &Error) -> Suite {
    let mut s = suite(finder, r);
    // `Error`'s `Display`: the server's words escaped, secrets scrubbed.
    let message = format!(
        "the run's log could not be read again for this report: {}: {e}",
        e.kind.name()
    );
    s.cases.push(Case {
        classname: s.name.clone(),
        name: format!("log of run {}", table::escape(r.run)),
        time_ms: 0,
        result: CaseResult::Error {
            text: format!("{message}\nOnly the failed tasks the wait saw are listed."),
            message,
        },
    });
    s.timestamp = None;
    s.time_ms = elapsed_ms;
    s
}

/// Write the report on stdout.
pub fn print(ctx: &Context, suites: &[Suite]) -> Result<()> {
    let xml = render(suites).map_err(|e| Error::internal(format!("JUnit report: {e}")))?;
    ctx.write_out(&xml)
}

/// Entries in the log's order (newest first) put in execution order:
/// oldest first, and entries that ended in the same second (times may have
/// no fraction) in the log's order reversed, as the server wrote them.
pub fn execution_order(entries: &mut [LogEntry]) {
    entries.reverse();
    entries.sort_by_key(|e| e.executed_at.parsed());
}

/// The entries of one run, from `from` to a little past now (the service's
/// clock may differ from ours): the log read once more after a wait, which
/// keeps only what its rule needs.
pub async fn entries_of(
    api: &Client,
    id: Uuid,
    run: &str,
    from: DateTime<Utc>,
) -> Result<(Vec<LogEntry>, usize)> {
    let w = Window {
        from,
        to: Utc::now() + chrono::Duration::minutes(10),
    };
    crate::commands::kit::run_entries::read(api, id, &w, run).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finder() -> Finder {
        crate::commands::kit::failure_read::plain_finder()
    }

    fn report<'a>(run: &'a str, entries: &'a [LogEntry], end: End) -> Report<'a> {
        Report {
            pipeline: Uuid::nil(),
            run,
            entries,
            graph: None,
            types: None,
            end,
            evidence: None,
        }
    }

    /// The run's UUID is the server's text: escaped as the task names are,
    /// in the property and in the case that stands for an open run.
    #[test]
    fn the_run_uuid_is_escaped_like_other_server_text() {
        let run = "6f1c\u{202e}cba\u{1b}[31m";
        let s = suite(&finder(), &report(run, &[], End::Open("running".into())));
        let (_, uuid) = s.properties.iter().find(|(k, _)| k == "run_uuid").unwrap();
        assert_eq!(uuid, &table::escape(run));
        let case = s.cases.last().unwrap();
        assert_eq!(case.name, format!("run {}", table::escape(run)));
        for text in [uuid, &case.name] {
            assert!(!text.contains(['\u{202e}', '\u{1b}']), "{text:?}");
        }
    }

    /// A log not read again: the failed entries the wait kept, an `<error>`
    /// saying why the rest is missing, the wait's elapsed time.
    #[test]
    fn a_log_not_read_again_leaves_the_failed_tasks_and_an_error() {
        let json = serde_json::json!({
            "workflow_run_uuid": "r",
            "task_uuid": "a87db346-0000-4000-8000-000000000000",
            "task_type": "filter",
            "is_successful": false,
            "duration": 1100,
            "output": r#"[{"Code":4220,"Severity":"critical","Message":"expired"}]"#,
            "executed_at": "2026-01-01T00:00:01Z",
        })
        .to_string();
        let e: ylem_client::api::models::LogEntryRef = serde_json::from_str(&json).unwrap();
        let failed = e.to_owned_entry();
        let entries = [failed];
        let e = Error::server("HTTP 503 for GET /v1/stats/…/logs: \u{1b}[2Jdown");
        let s = unread(&finder(), &report("r", &entries, End::Failed), 5400, &e);
        assert_eq!((s.time_ms, s.timestamp.as_deref()), (5400, None));
        assert_eq!(s.cases.len(), 2, "{s:?}");
        assert!(matches!(s.cases[0].result, CaseResult::Failed { .. }));
        let CaseResult::Error { message, .. } = &s.cases[1].result else {
            panic!("{s:?}");
        };
        assert!(message.contains("could not be read again"), "{message}");
        assert!(message.contains("HTTP 503"), "{message}");
        assert!(!message.contains('\u{1b}'), "{message}");
        assert_eq!(s.cases[1].name, "log of run r");
    }
}
