//! `-o junit`: the reports of `run pipeline --wait` and `runs P --run R`
//! (with and without `--wait`), read by a real JUnit consumer (Python's
//! `junitparser`, Debian's `python3-junitparser`, which `.ci/run` installs)
//! and held to the sandbox's ground truth: counts, names, times, the failed
//! task's messages, the tasks a failed run skipped; exit codes as without
//! it; `-o junit` anywhere else a usage error with nothing sent.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::Out;
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

/// Debian's interpreter, where `apt-get install python3-junitparser` puts
/// the module (a `python3` first on PATH may be another one).
const PYTHON: &str = "/usr/bin/python3";

/// The report as junitparser reads it, as JSON.
const READER: &str = r#"
import json, sys
from junitparser import JUnitXml, TestSuite
xml = JUnitXml.fromfile(sys.argv[1])
suites = [xml] if isinstance(xml, TestSuite) else list(xml)
out = {"root": type(xml).__name__, "suites": []}
if not isinstance(xml, TestSuite):
    out["totals"] = {k: getattr(xml, k) for k in ["tests", "failures", "errors", "skipped", "time"]}
for s in suites:
    cases = []
    for c in s:
        res = [{"kind": type(r).__name__.lower(), "message": r.message, "text": r.text} for r in c.result]
        cases.append({"classname": c.classname, "name": c.name, "time": c.time, "result": res})
    out["suites"].append({"name": s.name, "tests": s.tests, "failures": s.failures,
        "errors": s.errors, "skipped": s.skipped, "time": s.time, "timestamp": s.timestamp,
        "properties": {p.name: p.value for p in s.properties()}, "cases": cases})
print(json.dumps(out))
"#;

/// Bounds the starts of the pipeline whose middle task fails 60% of runs.
const TRIES: usize = 12;

fn read_report(dir: &Path, xml: &str) -> Value {
    let file = dir.join("report.xml");
    std::fs::write(&file, xml).unwrap();
    let script = dir.join("read.py");
    std::fs::write(&script, READER).unwrap();
    let o = Command::new(PYTHON)
        .arg(&script)
        .arg(&file)
        .output()
        .expect("python3 (apt-get install python3-junitparser)");
    assert!(
        o.status.success(),
        "junitparser: {}\n{xml}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A pipeline of the banner by its notes: its UUID and its tasks' UUIDs.
fn pipeline(sb: &Sandbox, notes: &[&str]) -> (String, Vec<String>) {
    let p = sb.banner["pipelines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["notes"] == serde_json::json!(notes))
        .unwrap_or_else(|| panic!("a pipeline noted {notes:?}: {}", sb.banner));
    let tasks = p["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["uuid"].as_str().unwrap().to_string())
        .collect();
    (p["uuid"].as_str().unwrap().to_string(), tasks)
}

/// `[Code Severity] Message`, joined as a failure's messages are.
fn messages(failed: &Value) -> String {
    failed["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let code = match &m["Code"] {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                v => v.to_string(),
            };
            let tag = [code, m["Severity"].as_str().unwrap_or("").to_string()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            format!("[{tag}] {}", m["Message"].as_str().unwrap())
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn close(a: &Value, ms: &Value) -> bool {
    let want = ms.as_f64().unwrap() / 1000.0;
    (a.as_f64().unwrap() - want).abs() < 0.0005
}

/// One suite against the truth of its run: `names` is the alias of a
/// task where one names it.
fn check_suite(
    s: &Value,
    sb: &Sandbox,
    run: &str,
    class: &str,
    tasks: &[String],
    alias: &[(&str, &str)],
) {
    let t = sb.truth(run);
    assert_eq!(t["finished"], true, "{t}");
    let entries = t["entries"].as_array().unwrap();
    let ok = t["is_successful"] == true;
    assert_eq!(s["name"], class, "{s}");
    assert_eq!(s["properties"]["run_uuid"], run, "{s}");
    assert_eq!(
        s["properties"]["result"],
        if ok { "succeeded" } else { "failed" }
    );
    assert!(
        close(&s["time"], &t["elapsed"]),
        "time {} vs elapsed {}",
        s["time"],
        t["elapsed"]
    );
    // The run's start: its first task's, to the second, in UTC.
    let started = t["started"].as_str().unwrap();
    let started = chrono::DateTime::parse_from_rfc3339(started).unwrap();
    let want = started.naive_utc().format("%Y-%m-%dT%H:%M:%S").to_string();
    assert_eq!(s["timestamp"], want, "{s}\n{t}");
    let name_of = |uuid: &str| {
        alias
            .iter()
            .find(|(u, _)| *u == uuid)
            .map_or(uuid.to_string(), |(_, a)| a.to_string())
    };
    let skipped: Vec<&String> = tasks
        .iter()
        .filter(|u| !entries.iter().any(|e| e["task_uuid"] == **u))
        .collect();
    let cases = s["cases"].as_array().unwrap();
    assert_eq!(s["tests"], entries.len() + skipped.len(), "{s}");
    assert_eq!(cases.len(), entries.len() + skipped.len(), "{s}");
    assert_eq!(s["failures"], if ok { 0 } else { 1 }, "{s}");
    assert_eq!(s["errors"], 0, "{s}");
    assert_eq!(s["skipped"], skipped.len(), "{s}");
    if !ok {
        assert!(
            !skipped.is_empty(),
            "the failing middle task skips the rest: {t}"
        );
    }
    // The entries in the order the tasks ran, then the tasks not run.
    for (c, e) in cases.iter().zip(entries) {
        let uuid = e["task_uuid"].as_str().unwrap();
        assert_eq!(c["classname"], class);
        assert_eq!(
            c["name"],
            format!("{} ({})", name_of(uuid), e["task_type"].as_str().unwrap()),
            "{c}"
        );
        assert!(close(&c["time"], &e["duration"]), "{c} vs {e}");
        match e["is_successful"].as_bool().unwrap() {
            true => assert_eq!(c["result"], serde_json::json!([]), "{c}"),
            false => {
                let f = &c["result"][0];
                assert_eq!(f["kind"], "failure", "{c}");
                let failed = &t["failed"][0];
                assert_eq!(failed["task_uuid"], uuid);
                assert_eq!(f["message"], messages(failed), "{c}");
                assert_eq!(f["text"], messages(failed).replace("; ", "\n"), "{c}");
            }
        }
    }
    // Named as the runs that reached them name them: with their type.
    for (c, u) in cases[entries.len()..].iter().zip(&skipped) {
        assert_eq!(
            c["name"],
            format!("{} ({})", name_of(u), type_of(sb, u)),
            "{c}"
        );
        assert_eq!(c["result"][0]["kind"], "skipped", "{c}");
    }
}

/// A task's type, by the banner.
fn type_of(sb: &Sandbox, task: &str) -> String {
    let all = sb.banner["pipelines"].as_array().unwrap();
    let t = all
        .iter()
        .flat_map(|p| p["tasks"].as_array().unwrap())
        .find(|t| t["uuid"] == task)
        .unwrap_or_else(|| panic!("task {task} in the banner"));
    t["task_type"].as_str().unwrap().to_string()
}

fn run_id(s: &Value) -> String {
    s["properties"]["run_uuid"].as_str().unwrap().to_string()
}

fn no_secret(sb: &Sandbox, o: &Out) {
    assert!(!o.all().contains(&sb.secret), "the client secret in output");
}

#[test]
fn a_failed_and_a_succeeded_run_read_by_junitparser() {
    // Seed 2: a chain of five tasks whose middle one (a query) fails 60%
    // of runs, skipping the last two; its history fixes the task set.
    let sb = start_with("spec", &["--seed", "2", "--task-delay", "100ms"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = d.join("key");
    std::fs::write(&key, &sb.key).unwrap();
    let cfg = d.join("config");
    let (flaky, flaky_tasks) = pipeline(&sb, &["begins with an external trigger"]);
    let (steady, steady_tasks) = pipeline(&sb, &["started runs always succeed"]);
    let cfg_s = cfg.to_str().unwrap();
    let env = [
        ("YLEM_CONFIG_DIR", cfg_s),
        ("YLEM_DECRYPT_KEY_FILE", key.to_str().unwrap()),
    ];
    // Aliases name the pipeline and one task in the report.
    let trigger = flaky_tasks[0].clone();
    for (name, id) in [
        ("payments", flaky.clone()),
        ("intake", format!("task:{trigger}")),
    ] {
        let o = sb.run_with(&["alias", "set", name, &id], &env);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let alias = [(trigger.as_str(), "intake")];
    let run = |args: &[&str]| {
        let o = sb.run_with(args, &env);
        no_secret(&sb, &o);
        o
    };

    // Started until one fails (bounded): each is a report of its own.
    let mut failed = None;
    for _ in 0..TRIES {
        let o = run(&[
            "run", "pipeline", "payments", "--wait", "--poll", "1s", "-o", "junit",
        ]);
        let r = read_report(d, &o.stdout);
        assert_eq!(r["root"], "TestSuite", "one run, one suite");
        let s = &r["suites"][0];
        check_suite(s, &sb, &run_id(s), "payments", &flaky_tasks, &alias);
        match o.code {
            7 => {
                assert!(o.stderr.contains("run failed"), "{}", o.stderr);
                failed = Some((run_id(s), s.clone()));
                break;
            }
            0 => continue,
            c => panic!("exit {c}: {}", o.stderr),
        }
    }
    let (failed, report) = failed.expect("a failed run in {TRIES} starts");

    // The same run afterwards, by `runs --run`, with and without --wait:
    // the same cases and counts, exit codes as without -o junit.
    for wait in [false, true] {
        let mut args = vec![
            "runs", "payments", "--run", &failed, "--since", "1h", "-o", "junit",
        ];
        if wait {
            args.extend(["--wait", "--poll", "1s"]);
        }
        let o = run(&args);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        let s = &read_report(d, &o.stdout)["suites"][0];
        check_suite(s, &sb, &failed, "payments", &flaky_tasks, &alias);
        for k in ["tests", "failures", "skipped", "cases", "time", "timestamp"] {
            assert_eq!(s[k], report[k], "{k} ({args:?})");
        }
        args.push("--exit-status");
        assert_eq!(run(&args).code, 7, "{args:?}");
    }

    // A run that always succeeds: no failure, nothing skipped.
    let o = run(&[
        "run", "pipeline", &steady, "--wait", "--poll", "1s", "-o", "junit",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let s = &read_report(d, &o.stdout)["suites"][0];
    check_suite(s, &sb, &run_id(s), &steady, &steady_tasks, &[]);
    assert_eq!(s["skipped"], 0);
    assert!(s["properties"]["evidence"].is_string(), "{s}");
    let o = run(&[
        "runs",
        &steady,
        "--run",
        &run_id(s),
        "--since",
        "1h",
        "-o",
        "junit",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let again = &read_report(d, &o.stdout)["suites"][0];
    assert_eq!(again["cases"], s["cases"]);
}

/// `run --wait -o junit` whose log cannot be read again once the wait has
/// seen the run succeed (review1 item 9), through a proxy in front of the
/// sandbox. The wait's polls all ask from the same time (ten minutes
/// before the wait began); the read after the wait asks from ten minutes
/// before the command began. The proxy holds the start's answer until the
/// next whole second (the times are whole seconds), so the two differ,
/// and answers 503 to any log read from another time than the polls'. The
/// report still comes, read by junitparser: the run's suite, its result,
/// an `<error>` case saying the log could not be read again; the exit code
/// is the run's (0); stderr says why it is short.
#[test]
fn a_log_not_read_again_after_the_wait_still_gives_the_report() {
    use common::faultserver::*;
    use std::sync::{Arc, Mutex};
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let dir = tempfile::tempdir().unwrap();
    let (steady, _) = pipeline(&sb, &["started runs always succeed"]);
    let base = sb.base.clone();
    // (the run started, the time the wait's polls ask from, reads refused)
    type Seen3 = (Option<String>, Option<String>, usize);
    let state: Arc<Mutex<Seen3>> = Arc::default();
    let st = state.clone();
    let proxy = FaultServer::start(move |r, _| {
        let from = r
            .path
            .split("/logs/")
            .nth(1)
            .and_then(|t| t.split('/').next());
        let mut st = st.lock().unwrap();
        // A basis read (its period three days back) is the wait's, read
        // once the run's first entry is seen (issue 42): not refused.
        let old = (chrono::Utc::now() - chrono::Duration::days(2)).date_naive();
        let basis = from
            .and_then(|f| f.get(..10))
            .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .is_some_and(|d| d < old);
        if let (Some(from), Some(_), false) = (from, &st.0, basis) {
            match &st.1 {
                None => st.1 = Some(from.to_string()),
                Some(polls) if polls != from => {
                    st.2 += 1;
                    return Action::Raw(json(503, r#"{"error":"unavailable"}"#));
                }
                Some(_) => {}
            }
        }
        let start = r.method == "POST" && !r.path.contains("/oauth/");
        if start {
            common::next_second();
        }
        let answer = forward(&base, r);
        if start {
            let text = String::from_utf8_lossy(&answer);
            let at = text.find("\"pipeline_run_uuid\":\"");
            let at = at.unwrap_or_else(|| panic!("a run started: {text}")) + 21;
            st.0 = Some(text[at..at + 36].to_string());
        }
        Action::Raw(answer)
    });
    let env = [
        ("YLEM_BASE_URL", proxy.base()),
        ("YLEM_CLIENT_ID", sb.client_id.clone()),
        ("YLEM_CLIENT_SECRET", sb.secret.clone()),
    ];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let args = [
        "run",
        "pipeline",
        &steady,
        "--wait",
        "--poll",
        "500ms",
        "--wait-timeout",
        "60s",
        "-o",
        "junit",
    ];
    let o = common::ylem(&args, &env);
    no_secret(&sb, &o);
    let (run, _, refused) = state.lock().unwrap().clone();
    assert!(refused > 0, "the read after the wait refused: {}", o.stderr);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("its log could not be read again"),
        "{}",
        o.stderr
    );
    let r = read_report(dir.path(), &o.stdout);
    let s = &r["suites"][0];
    let run = run.unwrap();
    assert_eq!(s["properties"]["run_uuid"], run, "{s}");
    assert_eq!(s["properties"]["result"], "succeeded", "{s}");
    let counts = [&s["tests"], &s["errors"], &s["failures"], &s["skipped"]];
    assert_eq!(counts, [1, 1, 0, 0], "{s}");
    let e = &s["cases"][0]["result"][0];
    assert_eq!(e["kind"], "error", "{s}");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("could not be read again"), "{s}");
    assert!(close(&s["time"], &sb.truth(&run)["elapsed"]), "{s}");
}

#[test]
fn several_runs_are_wrapped_and_a_refused_start_is_an_error_case() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let dir = tempfile::tempdir().unwrap();
    let (steady, tasks) = pipeline(&sb, &["started runs always succeed"]);
    let inactive = sb.banner["special_pipelines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["label"] == "inactive")
        .and_then(|p| p["uuid"].as_str())
        .unwrap_or_else(|| panic!("an inactive pipeline: {}", sb.banner))
        .to_string();
    let args = |o: &'static str| {
        vec![
            "run".to_string(),
            "pipeline".into(),
            steady.clone(),
            inactive.clone(),
            "--wait".into(),
            "--poll".into(),
            "1s".into(),
            "-o".into(),
            o.into(),
        ]
    };
    let junit = args("junit");
    let o = sb.run(&junit.iter().map(String::as_str).collect::<Vec<_>>());
    let json = args("json");
    let plain = sb.run(&json.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        o.code, plain.code,
        "exit codes as without -o junit: {}",
        o.stderr
    );
    assert_eq!(o.code, 4, "{}", o.stderr);
    no_secret(&sb, &o);
    let r = read_report(dir.path(), &o.stdout);
    assert_eq!(r["root"], "JUnitXml", "several runs: <testsuites>");
    let (a, b) = (&r["suites"][0], &r["suites"][1]);
    check_suite(a, &sb, &run_id(a), &steady, &tasks, &[]);
    assert_eq!(b["name"], inactive);
    assert_eq!(
        (b["tests"].clone(), b["errors"].clone()),
        (1.into(), 1.into())
    );
    let e = &b["cases"][0]["result"][0];
    assert_eq!(e["kind"], "error", "{b}");
    assert!(
        e["message"].as_str().unwrap().starts_with("not_found: "),
        "{e}"
    );
    assert_eq!(r["totals"]["tests"], a["tests"].as_u64().unwrap() + 1);
    assert_eq!(r["totals"]["errors"], 1);
}

#[test]
fn junit_elsewhere_is_a_usage_error_before_any_request() {
    let sb = start_with("ylem", &[]);
    let (p, _) = pipeline(&sb, &["started runs always succeed"]);
    let w = sb.workflows[0].clone();
    let before = sb.requests().len();
    for args in [
        vec!["stats", "pipeline", &p, "-o", "junit"],
        vec!["runs", &p, "-o", "junit"],
        vec!["run", "pipeline", &p, "-o", "junit"],
        vec!["run", "workflow", &w, "--wait", "-o", "junit"],
        vec!["logs", &p, "-o", "junit"],
        vec!["status", &p, "-o", "junit"],
    ] {
        let o = sb.run(&args);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr
                .contains("it is for run pipeline ... --wait and runs PIPELINE --run RUN"),
            "{args:?}: {}",
            o.stderr
        );
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
    }
    assert_eq!(sb.requests().len(), before, "nothing sent");
}

/// A wait that runs out: exit 8 as without `-o junit`, the tasks reported
/// so far as cases, the rest of the task set skipped as not reported yet,
/// and one `<error>` case saying the run had not ended.
#[test]
fn a_wait_that_runs_out_is_an_error_case() {
    // Slow tasks: the run is far from its end when the wait gives up.
    let sb = start_with("ylem", &["--task-delay", "3s"]);
    let dir = tempfile::tempdir().unwrap();
    let (steady, tasks) = pipeline(&sb, &["started runs always succeed"]);
    let o = sb.run(&[
        "run",
        "pipeline",
        &steady,
        "--wait",
        "--wait-timeout",
        "2s",
        "--poll",
        "1s",
        "-o",
        "junit",
    ]);
    assert_eq!(o.code, 8, "{}", o.stderr);
    no_secret(&sb, &o);
    let s = &read_report(dir.path(), &o.stdout)["suites"][0];
    let run = run_id(s);
    let t = sb.truth(&run);
    assert_eq!(t["finished"], false, "{t}");
    assert_eq!(s["properties"]["result"], "running", "{s}");
    assert_eq!(
        (s["errors"].clone(), s["failures"].clone()),
        (1.into(), 0.into()),
        "{s}"
    );
    let cases = s["cases"].as_array().unwrap();
    let ran = cases
        .iter()
        .filter(|c| c["result"] == serde_json::json!([]))
        .count();
    assert!(ran as u64 <= t["reported"].as_u64().unwrap(), "{s}\n{t}");
    assert_eq!(
        ran + s["skipped"].as_u64().unwrap() as usize,
        tasks.len(),
        "{s}"
    );
    let last = cases.last().unwrap();
    assert_eq!(last["name"], format!("run {run}"));
    assert_eq!(last["result"][0]["kind"], "error");
    assert!(
        last["result"][0]["message"]
            .as_str()
            .unwrap()
            .contains("--wait-timeout"),
        "{last}"
    );
    for c in cases.iter().filter(|c| c["result"][0]["kind"] == "skipped") {
        assert_eq!(
            c["result"][0]["message"],
            "not reported yet: the run had not ended"
        );
    }
}
