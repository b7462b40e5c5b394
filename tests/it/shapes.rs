//! Output shapes for scripts: with several IDs every ID keeps its row, in
//! the order given, a failed one carrying its error; one ID gives one
//! object; `run` prints one row per start; server text is escaped.

use crate::common::{self, sandbox};

use common::*;
use serde_json::Value;
use wiremock::matchers::{method, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

const STATS: &str = r#"{"num_of_successes":12,"num_of_failures":3,"average_duration":1534,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1200}"#;

/// P1 answers; P2 is unknown (404), with a body holding an escape sequence.
async fn one_good_one_missing() -> MockServer {
    let s = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path_regex(format!("/{P2}/")))
        .respond_with(
            ResponseTemplate::new(404)
                .set_body_raw(b"no such \x1b[31mthing\x1b[0m".to_vec(), "text/plain"),
        )
        .mount(&s)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(format!("/{P1}/")))
        .respond_with(ResponseTemplate::new(200).set_body_raw(STATS, "application/json"))
        .mount(&s)
        .await;
    s
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_id_keeps_its_row_in_every_format() {
    let s = one_good_one_missing().await;
    let env = token_env(&s.uri());
    let args = |f: &'static str| vec!["stats", "pipeline", P2, P1, P2, "-o", f];
    let o = run_env(&args("json"), &env);
    assert_eq!(o.code, 4, "the worst exit code: {}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3, "{v}");
    for (row, id) in rows.iter().zip([P2, P1, P2]) {
        assert_eq!(row["uuid"], id);
    }
    assert_eq!(rows[0]["error"]["kind"], "not_found");
    assert_eq!(rows[0]["error"]["http_status"], 404);
    assert!(
        rows[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("404"),
        "{v}"
    );
    assert!(
        rows[0].get("status").is_none(),
        "status is the board's: {v}"
    );
    assert_eq!(rows[0]["num_of_successes"], Value::Null);
    assert_eq!(rows[1]["error"], Value::Null);
    assert_eq!(rows[1]["num_of_successes"], 12);
    let o = run_env(&args("csv"), &env);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", o.stdout);
    assert!(lines[0].ends_with(",error_kind,error"), "{}", lines[0]);
    assert!(lines[1].starts_with(P2) && lines[1].contains(",not_found,"));
    assert!(lines[2].starts_with(P1) && lines[2].ends_with(",,"));
    let o = run_env(&["stats", "pipeline", P2, P1], &env);
    assert_eq!(o.code, 4);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", o.stdout);
    assert!(lines[1].contains(P2) && lines[1].contains("not_found"));
    // last-run too, with its own error and last_run columns.
    let o = run_env(&["last-run", "pipeline", P1, P2, "-o", "jsonl"], &env);
    let rows: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{}", o.stdout);
    assert_eq!(rows[1]["uuid"], P2);
    assert_eq!(rows[1]["error"]["kind"], "not_found");
    assert_eq!(rows[1]["last_run"], Value::Null);
}

#[tokio::test(flavor = "multi_thread")]
async fn control_characters_from_the_server_are_escaped() {
    let s = one_good_one_missing().await;
    let env = token_env(&s.uri());
    let o = run_env(&["stats", "pipeline", P2], &env);
    assert_eq!(o.code, 4);
    assert!(!o.stderr.contains('\x1b'), "{:?}", o.stderr);
    let o = run_env(&["stats", "pipeline", P1, P2], &env);
    assert!(
        !o.stdout.contains('\x1b') && !o.stderr.contains('\x1b'),
        "{:?}",
        o.all()
    );
}

#[test]
fn run_prints_a_row_per_start_and_one_id_is_one_object() {
    let sb = sandbox::start("spec");
    let p = sb.pipelines[0].0.as_str();
    let o = sb.run(&["run", "pipeline", p]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", o.stdout);
    assert!(
        lines[1].contains(p) && lines[1].trim_end().ends_with("started"),
        "{}",
        o.stdout
    );
    assert!(!o.stdout.contains("false"), "{}", o.stdout);
    let o = sb.run(&["run", "pipeline", p, p, "-o", "csv"]);
    assert_eq!(o.stdout.lines().count(), 3, "{}", o.stdout);
    assert!(
        o.stdout
            .starts_with("uuid,run_uuid,outcome,error_kind,error\n"),
        "{}",
        o.stdout
    );
    // The raw records stay in -o json.
    let v = sb.json(&["run", "pipeline", p]);
    assert!(v[0]["task_uuid"].is_string(), "{v}");
    // One ID: an object in every command.
    for args in [
        vec!["run", "pipeline", p, "--wait", "--poll", "200ms"],
        vec!["last-run", "pipeline", p],
        vec!["stats", "pipeline", p],
    ] {
        let v = sb.json(&args);
        assert!(v.is_object(), "{args:?}: {v}");
    }
}

#[test]
fn fields_accept_any_case() {
    let sb = sandbox::start("spec");
    let p = sb.pipelines[0].0.as_str();
    let o = sb.run(&[
        "stats",
        "pipeline",
        p,
        "--fields",
        "NUM_OF_SUCCESSES,Num_Of_Failures",
        "-o",
        "csv",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.starts_with("num_of_successes,num_of_failures\n"),
        "{}",
        o.stdout
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_exit_code_is_the_worst_failure_whatever_the_order() {
    let s = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path_regex(format!("/{P1}/")))
        .respond_with(ResponseTemplate::new(404))
        .mount(&s)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(format!("/{P2}/")))
        .respond_with(ResponseTemplate::new(500))
        .mount(&s)
        .await;
    let mut env = token_env(&s.uri());
    env.push(("YLEM_OUTPUT", "csv".into()));
    for ids in [[P1, P2], [P2, P1]] {
        let o = run_env(
            &["stats", "pipeline", ids[0], ids[1], "--retries", "0"],
            &env,
        );
        assert_eq!(o.code, 5, "{ids:?}: {}", o.stderr);
        assert_eq!(o.stdout.lines().count(), 3, "{}", o.stdout);
    }
}
