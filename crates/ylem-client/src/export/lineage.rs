//! A finished run as OpenLineage run events (spec 2-0-2): a `START` at its
//! first task's start and a `COMPLETE` or `FAIL` at its last task's end,
//! the run ID the run's UUID, the failure in the `errorMessage` run facet.
//! No datasets: the service does not say what a pipeline reads or writes.

use serde_json::{Value, json};

use super::run::FinishedRun;

/// The core schema the events follow.
pub const SCHEMA_URL: &str = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent";
/// The `errorMessage` facet's schema.
pub const ERROR_FACET_URL: &str = "https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet";

/// Who the events are from and where their jobs are.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// `job.namespace`: the service's host, or the caller's choice.
    pub namespace: String,
    /// `producer` and each facet's `_producer`: a URI naming the software.
    pub producer: String,
}

/// The run's two events, START first.
pub fn events(run: &FinishedRun, source: &Source) -> [Value; 2] {
    let job = json!({"namespace": source.namespace, "name": run.pipeline_name});
    let time =
        |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    let event = |kind: &str, at| {
        json!({
            "eventType": kind,
            "eventTime": time(at),
            "run": {"runId": run.run.to_string()},
            "job": job,
            "inputs": [],
            "outputs": [],
            "producer": source.producer,
            "schemaURL": SCHEMA_URL,
        })
    };
    let start = event("START", run.started);
    let mut end = event(if run.failed { "FAIL" } else { "COMPLETE" }, run.ended);
    if run.failed {
        end["run"]["facets"] = json!({"errorMessage": {
            "_producer": source.producer,
            "_schemaURL": ERROR_FACET_URL,
            "message": run.failure.as_deref().unwrap_or("a task failed"),
            // Required by the facet; the tasks' language is the service's
            // business, and it does not say.
            "programmingLanguage": "unknown",
        }});
    }
    [start, end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::run::FinishedRun;
    use chrono::{TimeZone, Utc};
    use uuid::Uuid;

    #[test]
    fn a_failed_run_is_a_start_and_a_fail_with_its_message() {
        let at = |s| Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, s).unwrap();
        let run = FinishedRun {
            pipeline: Uuid::from_u128(1),
            pipeline_name: "orders".into(),
            run: Uuid::from_u128(2),
            failed: true,
            failure: Some("task x failed".into()),
            started: at(0),
            ended: at(3),
            duration_ms: 3000,
            completion: "failed_task".into(),
            tasks: vec![],
            omitted: 0,
        };
        let src = Source {
            namespace: "ylem.example".into(),
            producer: "urn:example:producer".into(),
        };
        let [s, e] = events(&run, &src);
        assert_eq!(s["eventType"], "START");
        assert_eq!(s["eventTime"], "2026-12-01T10:00:00Z");
        assert_eq!(e["eventType"], "FAIL");
        assert_eq!(e["run"]["runId"], "00000000-0000-0000-0000-000000000002");
        assert_eq!(
            e["run"]["facets"]["errorMessage"]["message"],
            "task x failed"
        );
        assert!(s["run"].get("facets").is_none());
    }
}
