//! `export otlp` against the sandbox's ground truth, in both dialects:
//! what a loopback receiver decoded with the official OpenTelemetry
//! protobuf definitions (PyPI `opentelemetry-proto`, `tests/py`) is, span
//! for span, the truth of each run: runs that succeeded, that failed
//! mid-way and whose later tasks were skipped, protobuf and JSON alike;
//! and the traces on stdout are the same spans.

use std::collections::BTreeMap;

use crate::common;

use chrono::{DateTime, Utc};
use common::receiver::Receiver;
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

const DIALECTS: [&str; 2] = ["ylem", "spec"];

/// The key file that opens the spec dialect's outputs (the failures'
/// messages), in a directory of the test's own.
pub fn key_file(sb: &Sandbox, dir: &std::path::Path) -> String {
    let p = dir.join("output.key");
    std::fs::write(&p, &sb.key).unwrap();
    p.to_string_lossy().into_owned()
}

fn nanos(t: &str) -> u64 {
    let t: DateTime<Utc> = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
    t.timestamp_nanos_opt().unwrap() as u64
}

fn ms(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("ms: {v}")) * 1_000_000
}

/// The spans of each trace, by trace ID.
pub fn traces(spans: &[Value]) -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for s in spans {
        out.entry(s["trace_id"].as_str().unwrap().to_string())
            .or_default()
            .push(s.clone());
    }
    out
}

/// A run's spans checked against its truth; what kind of run it was
/// (`succeeded`, `failed mid-way`, `skipped after a failure`).
pub fn check_trace(
    sb: &Sandbox,
    trace: &str,
    spans: &[Value],
    wrong: &mut Vec<String>,
) -> Vec<&'static str> {
    let run = uuid::Uuid::parse_str(trace).unwrap().to_string();
    let t = sb.truth(&run);
    let mut kinds = Vec::new();
    let roots: Vec<&Value> = spans
        .iter()
        .filter(|s| s["parent_span_id"].as_str().unwrap_or("").is_empty())
        .collect();
    let [root] = roots.as_slice() else {
        wrong.push(format!("{run}: {} root spans", roots.len()));
        return kinds;
    };
    if t["finished"] != true {
        wrong.push(format!(
            "{run}: exported, but the truth says it has not finished: {t}"
        ));
    }
    let ok = t["is_successful"] == true;
    let a = &root["attributes"];
    let want_result = if ok { "success" } else { "failure" };
    let start = nanos(t["started"].as_str().unwrap());
    let end = start + ms(&t["elapsed"]);
    for (what, got, want) in [
        (
            "root start",
            root["start_time_unix_nano"].clone(),
            Value::from(start),
        ),
        (
            "root end",
            root["end_time_unix_nano"].clone(),
            Value::from(end),
        ),
        (
            "root status",
            root["status"]["code"].clone(),
            Value::from(if ok { 1 } else { 2 }),
        ),
        (
            "run id",
            a["cicd.pipeline.run.id"].clone(),
            Value::from(run.clone()),
        ),
        (
            "result",
            a["cicd.pipeline.result"].clone(),
            Value::from(want_result),
        ),
        (
            "pipeline",
            a["ylem.pipeline.uuid"].clone(),
            t["pipeline"].clone(),
        ),
        (
            "duration",
            a["ylem.run.duration_ms"].clone(),
            t["duration"].clone(),
        ),
        ("kind", root["kind"].clone(), Value::from(2)),
    ] {
        if got != want {
            wrong.push(format!("{run} {what}: {got} != truth {want}"));
        }
    }
    let entries = t["entries"].as_array().unwrap();
    let children: Vec<&Value> = spans
        .iter()
        .filter(|s| s["parent_span_id"] == root["span_id"])
        .collect();
    if children.len() != entries.len() || spans.len() != entries.len() + 1 {
        wrong.push(format!(
            "{run}: {} task spans for {} entries",
            children.len(),
            entries.len()
        ));
    }
    // A for_each task has several entries in a run, maybe with one end:
    // each entry is matched to a span of its own, by task, end and start.
    let mut used = vec![false; children.len()];
    for e in entries {
        let end = nanos(e["executed_at"].as_str().unwrap());
        let start = end - ms(&e["duration"]);
        let task = e["task_uuid"].as_str().unwrap();
        let found = children.iter().enumerate().position(|(i, s)| {
            !used[i]
                && s["attributes"]["ylem.task.uuid"] == task
                && s["end_time_unix_nano"] == end
                && s["start_time_unix_nano"] == start
        });
        let Some(s) = found.map(|i| {
            used[i] = true;
            children[i]
        }) else {
            wrong.push(format!("{run}: no span for entry {e}"));
            continue;
        };
        let entry_ok = e["is_successful"] == true;
        let sa = &s["attributes"];
        for (what, got, want) in [
            (
                "task start",
                s["start_time_unix_nano"].clone(),
                Value::from(start),
            ),
            (
                "task status",
                s["status"]["code"].clone(),
                Value::from(if entry_ok { 1 } else { 2 }),
            ),
            (
                "task result",
                sa["cicd.pipeline.task.run.result"].clone(),
                Value::from(if entry_ok { "success" } else { "failure" }),
            ),
            (
                "task type",
                sa["cicd.pipeline.task.type"].clone(),
                e["task_type"].clone(),
            ),
            (
                "ylem type",
                sa["ylem.task.type"].clone(),
                e["task_type"].clone(),
            ),
            (
                "task duration",
                sa["ylem.task.duration_ms"].clone(),
                e["duration"].clone(),
            ),
            (
                "run id",
                sa["cicd.pipeline.run.id"].clone(),
                Value::from(run.clone()),
            ),
        ] {
            if got != want {
                wrong.push(format!("{run} task {task} {what}: {got} != truth {want}"));
            }
        }
        if !entry_ok {
            // The failure's own words reach both spans' status.
            let said = t["failed"][0]["errors"][0]["Message"]
                .as_str()
                .unwrap_or("");
            let msg = s["status"]["message"].as_str().unwrap_or("");
            let root_msg = root["status"]["message"].as_str().unwrap_or("");
            if said.is_empty() || !msg.contains(said) || !root_msg.contains(said) {
                wrong.push(format!(
                    "{run}: failure message {said:?} not in {msg:?} / {root_msg:?}"
                ));
            }
        }
    }
    let size = t["tasks"].as_u64().unwrap_or(0) as usize;
    let pipeline_tasks = sb
        .pipelines
        .iter()
        .find(|(p, _)| t["pipeline"] == p.as_str())
        .map_or(0, |(_, tasks)| tasks.len());
    match ok {
        true => kinds.push("succeeded"),
        false => {
            let last_failed = entries.last().is_some_and(|e| e["is_successful"] == false);
            if entries.len() > 1 && last_failed {
                kinds.push("failed mid-way");
            }
            if size < pipeline_tasks || entries.len() < pipeline_tasks {
                kinds.push("skipped after a failure");
            }
        }
    }
    kinds
}

/// Every finished run of every pipeline in the last day, as `runs` lists
/// them: the runs an export must send.
pub fn finished_runs(sb: &Sandbox) -> Vec<String> {
    let mut all = Vec::new();
    for (p, _) in &sb.pipelines {
        let v = sb.json(&["runs", p, "--since", "1d"]);
        for r in v.as_array().unwrap() {
            if r["result"] != "running" {
                all.push(r["run_uuid"].as_str().unwrap().to_string());
            }
        }
    }
    all.sort();
    all
}

#[test]
fn each_finished_run_is_one_trace_equal_to_the_truth_in_both_dialects_and_encodings() {
    let mut wrong = Vec::new();
    let mut seen_kinds = BTreeMap::new();
    for dialect in DIALECTS {
        let sb = start_with(dialect, &["--task-delay", "100ms"]);
        let dir = tempfile::tempdir().unwrap();
        let key = key_file(&sb, dir.path());
        let ids: Vec<&str> = sb.pipelines.iter().map(|(p, _)| p.as_str()).collect();
        let want = finished_runs(&sb);
        assert!(want.len() >= 10, "{dialect}: a day of runs: {want:?}");
        for protocol in ["http/protobuf", "http/json"] {
            let rx = Receiver::otlp(&[]);
            let mut args = vec!["export", "otlp"];
            args.extend(&ids);
            let endpoint = rx.url();
            args.extend([
                "--since",
                "1d",
                "--endpoint",
                &endpoint,
                "--protocol",
                protocol,
                "--decrypt-key-file",
                &key,
            ]);
            let o = sb.run(&args);
            assert_eq!(o.code, 0, "{dialect} {protocol}: {}", o.stderr);
            assert!(
                o.stdout.is_empty(),
                "nothing on stdout with a receiver: {}",
                o.stdout
            );
            assert!(
                o.stderr.contains(&format!("exported {} runs", want.len())),
                "{}",
                o.stderr
            );
            let spans = rx.received();
            let by_trace = traces(&spans);
            let got: Vec<String> = by_trace
                .keys()
                .map(|t| uuid::Uuid::parse_str(t).unwrap().to_string())
                .collect();
            assert_eq!(
                got.len(),
                want.len(),
                "{dialect} {protocol}: the runs `runs` lists as finished"
            );
            let mut want_sorted: Vec<String> = want.clone();
            want_sorted.sort();
            let mut got_sorted = got.clone();
            got_sorted.sort();
            assert_eq!(got_sorted, want_sorted, "{dialect} {protocol}");
            for (trace, spans) in &by_trace {
                for k in check_trace(&sb, trace, spans, &mut wrong) {
                    *seen_kinds.entry((dialect, k)).or_insert(0) += 1;
                }
                for s in spans {
                    if s["resource"]["service.name"] != "ylem"
                        || s["content_type"]
                            != match protocol {
                                "http/json" => "application/json",
                                _ => "application/x-protobuf",
                            }
                    {
                        wrong.push(format!("{trace}: resource or encoding {s}"));
                    }
                }
            }
        }
        // Without a receiver: the same spans, as OTLP JSON lines.
        let mut args = vec!["export", "otlp"];
        args.extend(&ids);
        args.extend(["--since", "1d", "--decrypt-key-file", &key]);
        let o = sb.run(&args);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert_eq!(o.stdout.lines().count(), want.len(), "a line per run");
        for line in o.stdout.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let span = &v["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
            assert_eq!(
                span["traceId"].as_str().unwrap().len(),
                32,
                "hex trace ID: {span}"
            );
        }
    }
    for dialect in DIALECTS {
        for k in ["succeeded", "failed mid-way", "skipped after a failure"] {
            assert!(
                seen_kinds.get(&(dialect, k)).copied().unwrap_or(0) > 0,
                "{dialect}: no run {k} among {seen_kinds:?}"
            );
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_run_in_progress_is_not_exported_until_it_has_finished() {
    for dialect in DIALECTS {
        // A second of task time takes 1.5 s: a run of several seconds.
        let sb = start_with(dialect, &["--task-delay", "1500ms"]);
        let p = sb.pipeline_named("hourly-inventory-refresh");
        let started = sb.json(&["run", "pipeline", &p]);
        let row = if started.is_array() {
            &started[0]
        } else {
            &started
        };
        let run = row["run_uuid"].as_str().unwrap().to_string();
        // Its first entry in the log, the run still going.
        common::process::wait_until(std::time::Duration::from_secs(60), "a first entry", || {
            let t = sb.truth(&run);
            t["reported"].as_u64().unwrap_or(0) >= 1 && t["finished"] == false
        });
        let o = sb.run(&["export", "otlp", &p, "--since", "1h"]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let hex = run.replace('-', "");
        assert!(
            !o.stdout.contains(&hex),
            "{dialect}: a run in progress exported:\n{}",
            o.stdout
        );
        assert!(o.stderr.contains("not finished yet"), "{}", o.stderr);
        // Once finished on evidence (its rule's grace or settle time
        // after its last entry), it is, once.
        sb.finished(&run, std::time::Duration::from_secs(120));
        let out = common::process::wait_for(
            std::time::Duration::from_secs(90),
            "the run exported",
            || {
                let o = sb.run(&["export", "otlp", &p, "--since", "1h"]);
                assert_eq!(o.code, 0, "{}", o.stderr);
                o.stdout.contains(&hex).then_some(o.stdout)
            },
        );
        let lines = out.lines().filter(|l| l.contains(&hex)).count();
        assert_eq!(lines, 1, "{dialect}: once, when finished");
    }
}
