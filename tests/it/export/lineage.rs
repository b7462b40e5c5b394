//! `export openlineage`: a START and a COMPLETE or FAIL event per finished
//! run, valid by the OpenLineage JSON schema (the spec repository's files,
//! `tests/fixtures/openlineage`) and accepted by the `openlineage-python`
//! client's models (`tests/py/lineage_receiver.py`), on stdout and POSTed
//! to a Marquez-like receiver with the API key as a bearer token (never
//! shown).

use std::collections::BTreeMap;

use crate::common;

use common::receiver::{Receiver, check_lineage_lines};
use common::sandbox::start_with;
use serde_json::Value;

#[test]
fn each_finished_run_is_a_start_and_an_end_event_valid_by_the_schema_and_the_python_models() {
    for dialect in ["ylem", "spec"] {
        let sb = start_with(dialect, &["--task-delay", "100ms"]);
        let dir = tempfile::tempdir().unwrap();
        let key = super::traces::key_file(&sb, dir.path());
        let ids: Vec<&str> = sb.pipelines.iter().map(|(p, _)| p.as_str()).collect();
        let want = super::traces::finished_runs(&sb);
        let mut args = vec!["export", "openlineage"];
        args.extend(&ids);
        args.extend([
            "--since",
            "1d",
            "--decrypt-key-file",
            &key,
            "--namespace",
            "ylem-test",
        ]);
        let o = sb.run(&args);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let n = check_lineage_lines(&o.stdout).unwrap_or_else(|e| panic!("{dialect}: {e}"));
        assert_eq!(n, 2 * want.len(), "two events a run");
        let mut by_run: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for line in o.stdout.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            by_run
                .entry(v["run"]["runId"].as_str().unwrap().to_string())
                .or_default()
                .push(v);
        }
        assert_eq!(by_run.keys().cloned().collect::<Vec<_>>(), want);
        for (run, events) in &by_run {
            let t = sb.truth(run);
            let [start, end] = events.as_slice() else {
                panic!("{run}: {events:?}")
            };
            assert_eq!(start["eventType"], "START");
            let started: chrono::DateTime<chrono::Utc> =
                t["started"].as_str().unwrap().parse().unwrap();
            let at = |v: &Value| {
                v["eventTime"]
                    .as_str()
                    .unwrap()
                    .parse::<chrono::DateTime<chrono::Utc>>()
                    .unwrap()
            };
            assert_eq!(at(start), started, "{run}");
            let elapsed = chrono::Duration::milliseconds(t["elapsed"].as_i64().unwrap());
            assert_eq!(at(end), started + elapsed, "{run}");
            assert_eq!(start["job"]["namespace"], "ylem-test");
            assert_eq!(start["job"]["name"], t["pipeline"]);
            match t["is_successful"] == true {
                true => assert_eq!(end["eventType"], "COMPLETE", "{run}"),
                false => {
                    assert_eq!(end["eventType"], "FAIL", "{run}");
                    let said = t["failed"][0]["errors"][0]["Message"].as_str().unwrap();
                    let msg = end["run"]["facets"]["errorMessage"]["message"]
                        .as_str()
                        .unwrap();
                    assert!(msg.contains(said), "{run}: {msg} lacks {said}");
                }
            }
        }
    }
}

#[test]
fn posted_to_a_receiver_with_the_api_key_every_event_is_accepted_and_the_key_never_shown() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let secret = "ol-key-5f0c1d9e7a";
    let rx = Receiver::lineage(&["--api-key", secret, "--fail", "503:1", "--retry-after", "0"]);
    let want = super::traces::finished_runs(&sb);
    let ids: Vec<&str> = sb.pipelines.iter().map(|(p, _)| p.as_str()).collect();
    let url = rx.url();
    let mut args = vec!["-vv", "export", "openlineage"];
    args.extend(&ids);
    args.extend(["--since", "1d", "--url", &url]);
    let o = sb.run_with(&args, &[("OPENLINEAGE_API_KEY", secret)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        !o.all().contains(secret),
        "the API key was shown:\n{}",
        o.all()
    );
    let got = rx.received();
    assert_eq!(got.len(), 2 * want.len(), "every event accepted once");
    let reqs = rx.requests();
    let rejected: Vec<&Value> = reqs
        .iter()
        .filter(|r| r["status"] != 201 && r["status"] != 503)
        .collect();
    assert!(rejected.is_empty(), "{rejected:?}");
    // A wrong key is refused (401): exit 3, the key not shown either.
    let o = sb.run_with(
        &[
            "export",
            "openlineage",
            ids[0],
            "--since",
            "1d",
            "--url",
            &url,
        ],
        &[("OPENLINEAGE_API_KEY", "wrong-key-0000")],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(!o.all().contains("wrong-key-0000"), "{}", o.all());
}
