//! `run pipeline P --rerun R`: the start's body is R's external trigger
//! output byte for byte (a recording server, and the ylem sandbox's log of
//! both runs); a run not found, or without an external trigger, is exit 2
//! naming why and `--input`, with no run started; `--rerun` excludes
//! `--input`; the help shows it with an example.

use crate::common;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::faultserver::{FaultServer, Seen, json, route, run_starts};
use common::sandbox::start_with;
use common::*;
use serde_json::Value;

const RUN: &str = "60b04f58-1755-4661-bde6-97743c594973";
const OTHER: &str = "c30f67f3-562b-463b-9bfd-943ca0abd9f9";

fn entry(run: &str, task_type: &str, output: &[u8], at: &str) -> String {
    format!(
        r#"{{"pipeline_run_uuid":"{run}","task_uuid":"a87db346-0000-4000-8000-00000000000{}","task_type":"{task_type}","is_successful":true,"duration":40,"output":"{}","executed_at":"{at}"}}"#,
        at.len() % 10,
        STANDARD.encode(output)
    )
}

/// A server whose log of P1 is `log` and that answers every start 201.
fn server(log: String) -> FaultServer {
    let s = FaultServer::routed();
    s.on(route()
        .method("GET")
        .path_like(format!("/v1/stats/pipelines/{P1}/logs/*"))
        .answer(json(200, &log)));
    s.on(run_starts());
    s
}

fn posts(s: &FaultServer) -> Vec<Seen> {
    s.seen_method("POST")
}

#[test]
fn the_start_sends_the_trigger_output_byte_for_byte() {
    // Spacing, key order, escapes and a number form a re-serialiser would
    // change, and a line end: the bytes must arrive as the trigger wrote them.
    let input: &[u8] = b"{ \"b\": 1.50, \"a\" : [\"\\u00e9\", \"\xc3\xa9\"] , \"n\":-0 }\n";
    // Newest first, as the server sends it; another run's trigger between.
    let log = format!(
        "[{},{},{},{}]",
        entry(RUN, "query", b"[]", "2026-11-27T10:00:03Z"),
        entry(
            OTHER,
            "external_trigger",
            b"{\"other\":1}",
            "2026-11-27T10:00:02.5Z"
        ),
        entry(RUN, "filter", b"{}", "2026-11-27T10:00:02Z"),
        entry(RUN, "external_trigger", input, "2026-11-27T10:00:01Z"),
    );
    let s = server(log);
    let o = run_env(
        &["run", "pipeline", P1, "--rerun", RUN, "--since", "2d", "-v"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let p = posts(&s);
    assert_eq!(p.len(), 1, "one start");
    assert_eq!(p[0].body.as_bytes(), input);
    assert_eq!(p[0].header("content-type"), Some("application/json"));
    // -v says where the input came from.
    let line = o.stderr.lines().find(|l| l.starts_with("input: "));
    let want = format!(
        "input: {} bytes, the output of run {RUN}'s external trigger entry",
        input.len()
    );
    assert!(line.is_some_and(|l| l.starts_with(&want)), "{}", o.stderr);
    assert!(o.stdout.contains("started"), "{}", o.stdout);
}

#[test]
fn a_run_not_found_or_without_a_trigger_is_exit_2_and_nothing_starts() {
    let log = format!(
        "[{},{}]",
        entry(RUN, "query", b"[]", "2026-11-27T10:00:03Z"),
        entry(RUN, "filter", b"{}", "2026-11-27T10:00:02Z"),
    );
    let s = server(log);
    let env = token_env(&s.base());
    let o = run_env(&["run", "pipeline", P1, "--rerun", RUN], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains(&format!("run {RUN} has no external trigger entry")),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--input"), "{}", o.stderr);
    let o = run_env(&["run", "pipeline", P1, "--rerun", OTHER, "--wait"], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("no entry of run {OTHER}")),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--since"), "{}", o.stderr);
    assert!(o.stderr.contains("--input"), "{}", o.stderr);
    assert!(posts(&s).is_empty(), "no run started");
}

#[test]
fn rerun_excludes_input_and_takes_one_pipeline_and_no_workflow() {
    let s = FaultServer::routed();
    let env = token_env(&s.base());
    let o = run_env(
        &["run", "pipeline", P1, "--rerun", RUN, "--input", "{}"],
        &env,
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("cannot be used with"), "{}", o.stderr);
    let o = run_env(&["run", "pipeline", P1, "--since", "2d"], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    let o = run_env(&["run", "pipeline", P1, P2, "--rerun", RUN], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("one pipeline"), "{}", o.stderr);
    let o = run_env(&["run", "workflow", P1, "--rerun", RUN], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("for pipelines"), "{}", o.stderr);
    let o = run_env(&["run", "pipeline", P1, "--rerun", "not-a-run!"], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(s.seen().is_empty());
}

/// Against the ylem sandbox: the rerun's trigger wrote the very bytes the
/// first run's did (the raw Base64 of both entries), and the sandbox got an
/// input of the same size.
#[test]
fn the_sandbox_reruns_a_run_with_its_input() {
    let sb = start_with("ylem", &["--task-delay", "50ms"]);
    let p = sb.pipelines.last().unwrap().0.clone();
    let input = r#"{ "order_id" : 7,  "total": 1.50, "note": "\u00e9" }"#;
    let o = sb.run(&["run", "pipeline", &p, "--input", input, "-o", "jsonl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let first: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    let first = first["run_uuid"].as_str().unwrap().to_string();
    finished(&sb, &first);
    let o = sb.run(&[
        "run", "pipeline", &p, "--rerun", &first, "--wait", "-o", "json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let again: Value = serde_json::from_str(&o.stdout).unwrap();
    let again = again["workflow_run_uuid"].as_str().unwrap().to_string();
    assert_ne!(again, first);
    assert_eq!(sb.truth(&again)["input_bytes"], input.len());
    finished(&sb, &again);
    let trigger_output = |run: &str| -> String {
        let log = sb.json(&["logs", &p, "--run", run, "--since", "1h"]);
        let e = log
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["task_type"] == "external_trigger")
            .unwrap_or_else(|| panic!("a trigger entry: {log}"))
            .clone();
        e["output"].as_str().unwrap().to_string()
    };
    let raw = trigger_output(&first);
    assert_eq!(STANDARD.decode(&raw).unwrap(), input.as_bytes());
    assert_eq!(trigger_output(&again), raw);
    // A run of a pipeline without a trigger is refused, and starts nothing.
    let plain = sb.banner["pipelines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["tasks"][0]["task_type"] != "external_trigger")
        .and_then(|p| p["uuid"].as_str())
        .unwrap()
        .to_string();
    let o = sb.run(&["run", "pipeline", &plain, "-o", "jsonl"]);
    let run: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    let run = run["run_uuid"].as_str().unwrap().to_string();
    finished(&sb, &run);
    let before = sb.requests().len();
    let o = sb.run(&["run", "pipeline", &plain, "--rerun", &run]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("no external trigger entry"),
        "{}",
        o.stderr
    );
    let after = sb.requests();
    assert!(
        !after[before..]
            .iter()
            .any(|r| r.starts_with("POST /v1/pipelines/")),
        "{after:?}"
    );
}

/// Wait until the sandbox says run `run` has finished, and the second of
/// its last entry has passed (the window's end is a whole second).
fn finished(sb: &common::sandbox::Sandbox, run: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while sb.truth(run)["finished"] != true {
        assert!(std::time::Instant::now() < deadline, "{}", sb.truth(run));
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    next_second();
}

#[test]
fn help_and_man_page_show_rerun_with_an_example() {
    let o = ylem(&["run", "--help"], &[]);
    assert_eq!(o.code, 0);
    let line = "ylemctl run pipeline <ID> --rerun RUN_UUID [--since TIME | --from TIME --to TIME] [--wait ...]";
    assert!(o.stdout.contains(line), "{}", o.stdout);
    assert!(o.stdout.contains("--rerun <RUN_UUID>"), "{}", o.stdout);
    assert!(
        o.stdout
            .contains("ylemctl run pipeline orders --rerun 60b04f58-... --since 3d --wait"),
        "{}",
        o.stdout
    );
    let man = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/ylemctl-run.1"))
        .unwrap()
        .replace("\\-", "-");
    assert!(man.contains("--rerun"), "{man}");
}
