//! Server data checked against the spec's types where the tool relies on
//! it (issue 43), through the fault server: a timestamp that is no time or
//! out of range, a negative count or duration, a run start's UUID that is
//! none or two, and token responses that are no Bearer token usable as a
//! header. Each is exit 5 naming the field and the value (escaped; a token
//! never), never printed as if valid.

use crate::common::faultserver::*;
use crate::common::{P1, TOKEN};

const GOOD: &str = r#"{"num_of_successes":12,"num_of_failures":3,"average_duration":1200,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":900}"#;

/// `GOOD` with `field` set to the JSON `value`.
fn stats_with(field: &str, value: &str) -> String {
    let mut j: serde_json::Value = serde_json::from_str(GOOD).unwrap();
    j[field] = serde_json::from_str(value).unwrap();
    j.to_string()
}

/// `stats pipeline P1` against statistics answering `body`.
fn stats_of(body: String) -> (crate::common::Out, FaultServer) {
    let s = with_token(move |r, _| {
        if r.path.contains("/logs/") {
            Action::Raw(json(200, &log_array(1)))
        } else {
            Action::Raw(json(200, &body))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
    (o, s)
}

#[test]
fn statistics_not_of_the_spec_s_types_are_exit_5_naming_field_and_value() {
    let (good, _) = stats_of(GOOD.to_string());
    assert_eq!(good.code, 0, "{}", good.stderr);
    for (field, value, says) in [
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
            r#""9999-12-31 23:00:00""#,
            "out of range",
        ),
        (
            "last_run_executed_at",
            r#""soon\u001b[2J""#,
            r#""soon\u{1b}[2J""#,
        ),
        ("num_of_failures", "-3", "-3 is negative"),
        ("num_of_successes", "-1", "-1 is negative"),
        (
            "average_duration",
            "-9223372036854775808",
            "-9223372036854775808 is negative",
        ),
        ("last_run_duration", "-5", "-5 is negative"),
    ] {
        let (o, s) = stats_of(stats_with(field, value));
        assert_eq!(o.code, 5, "{field} {value}: {}", o.stderr);
        assert!(o.stdout.is_empty(), "{field} {value} printed: {}", o.stdout);
        assert!(
            o.stderr.contains(field) && o.stderr.contains(says),
            "{field} {value}: {}",
            o.stderr
        );
        assert!(!o.stderr.contains('\u{1b}'), "unescaped: {}", o.stderr);
        // No request derived from a bad value (a window to +10000-01-01).
        assert!(
            s.api().iter().all(|r| !r.path.contains("+10000")),
            "{:?}",
            s.api().iter().map(|r| &r.path).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_last_run_with_a_bad_time_or_duration_is_exit_5() {
    for body in [
        r#"{"is_successful":true,"executed_at":"soon","duration":5}"#,
        r#"{"is_successful":true,"executed_at":"2024-01-13 18:36:58","duration":-7}"#,
    ] {
        let b = body.to_string();
        let s = with_token(move |_, _| Action::Raw(json(200, &b)));
        let dir = tempfile::tempdir().unwrap();
        let o = client_run(&s.base(), dir.path(), &["last-run", "task", P1]);
        assert_eq!(o.code, 5, "{body}: {}", o.stderr);
        assert!(
            o.stderr.contains("executed_at") || o.stderr.contains("duration"),
            "{}",
            o.stderr
        );
    }
}

const RUN_A: &str = "11111111-1111-4111-8111-111111111111";
const RUN_B: &str = "22222222-2222-4222-8222-222222222222";

#[test]
fn a_run_start_whose_run_uuid_is_none_or_two_is_exit_5_and_not_followed() {
    let rec = |w: &str| {
        format!(r#"{{"id":1,"state":"pending","task_uuid":"{P1}","workflow_run_uuid":"{w}"}}"#)
    };
    for (body, says) in [
        (
            r#"{"pipeline_run_uuid":"xyz"}"#.to_string(),
            r#"pipeline_run_uuid "xyz" (not a UUID)"#.to_string(),
        ),
        (
            format!("[{}]", rec("not-a-uuid")),
            r#""not-a-uuid" (not a UUID)"#.to_string(),
        ),
        (
            format!("[{},{}]", rec(RUN_A), rec(RUN_B)),
            format!(r#""{RUN_A}" and "{RUN_B}""#),
        ),
    ] {
        let b = body.clone();
        let s = with_token(move |r, _| match r.method.as_str() {
            "POST" => Action::Raw(json(201, &b)),
            _ => Action::Raw(json(200, "[]")),
        });
        let dir = tempfile::tempdir().unwrap();
        let o = client_run(&s.base(), dir.path(), &["run", "pipeline", P1, "--wait"]);
        assert_eq!(o.code, 5, "{body}: {}", o.stderr);
        assert!(o.stderr.contains(&says), "{body}: {}", o.stderr);
        assert!(
            !o.stdout.contains("xyz") && !o.stdout.contains(RUN_A),
            "{}",
            o.stdout
        );
        // One POST, and nothing after it: no polling of a run it cannot name.
        let api: Vec<String> = (s.api().iter())
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        assert_eq!(
            api.iter().filter(|r| r.starts_with("POST")).count(),
            1,
            "{api:?}"
        );
        assert!(api.last().unwrap().starts_with("POST"), "{api:?}");
    }
}

/// `stats` against a token endpoint answering `token`.
fn with_token_body(token: &str) -> (crate::common::Out, FaultServer, tempfile::TempDir) {
    let t = token.to_string();
    let s = FaultServer::start(move |r, _| {
        if r.path.starts_with("/v1/oauth/token") {
            Action::Raw(json(200, &t))
        } else {
            Action::Raw(json(200, GOOD))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
    (o, s, dir)
}

#[test]
fn token_responses_that_are_no_usable_bearer_token_are_exit_5_naming_the_field() {
    let tok = |rest: &str| format!(r#"{{"access_token":"{TOKEN}","expires_in":86400{rest}}}"#);
    for (body, says) in [
        (
            tok(r#","token_type":"mac""#),
            r#"token_type "mac""#.to_string(),
        ),
        (
            tok(r#","token_type":"DPoP""#),
            r#"token_type "DPoP""#.to_string(),
        ),
        (tok(""), "no token_type".to_string()),
        (
            r#"{"access_token":"","token_type":"Bearer"}"#.to_string(),
            "an empty access_token".to_string(),
        ),
        (
            format!(r#"{{"access_token":"{TOKEN}\r\nX-Evil: 1","token_type":"Bearer"}}"#),
            "an access_token that cannot be sent as a header".to_string(),
        ),
    ] {
        let (o, s, _dir) = with_token_body(&body);
        assert_eq!(o.code, 5, "{body}: {}", o.stderr);
        assert!(o.stderr.contains(&says), "{body}: {}", o.stderr);
        assert!(!o.all().contains(TOKEN), "the token shown: {}", o.all());
        assert!(s.api().is_empty(), "{body}: the token was used");
    }
    // Bearer in any case is taken.
    let (o, _, _dir) = with_token_body(&tok(r#","token_type":"bEaReR""#));
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn a_lifetime_of_0_or_less_is_expired_not_endless() {
    for lifetime in ["0", "-60"] {
        let body = format!(
            r#"{{"access_token":"{TOKEN}","expires_in":{lifetime},"token_type":"Bearer"}}"#
        );
        let s = FaultServer::start(move |r, _| {
            if r.path.starts_with("/v1/oauth/token") {
                Action::Raw(json(200, &body))
            } else {
                Action::Raw(json(200, GOOD))
            }
        });
        let dir = tempfile::tempdir().unwrap();
        for _ in 0..2 {
            let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
            assert_eq!(o.code, 0, "{}", o.stderr);
        }
        let tokens = s
            .seen()
            .iter()
            .filter(|r| r.path.starts_with("/v1/oauth/token"))
            .count();
        assert_eq!(
            tokens, 2,
            "expires_in {lifetime}: the token was reused as if it never expired"
        );
    }
}

fn bucket(from: &str, to: &str, ok: i64) -> String {
    format!(
        r#"{{"date_from":"{from}","date_to":"{to}","num_of_successes":{ok},"num_of_failures":0,"average_duration":10}}"#
    )
}

/// `aggregate pipeline P1` for the three months from 2024-01-01 against
/// buckets `body`.
fn aggregate_of(body: String) -> crate::common::Out {
    let s = with_token(move |_, _| Action::Raw(json(200, &body)));
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "aggregate",
        "pipeline",
        P1,
        "--from",
        "2024-01-01",
        "--period",
        "month",
        "--count",
        "3",
        "-o",
        "jsonl",
    ];
    client_run(&s.base(), dir.path(), &args)
}

#[test]
fn aggregate_leaves_out_buckets_outside_the_asked_range_or_twice_with_a_warning() {
    let list = [
        bucket("1990-01-01 00:00:00", "1990-01-31 23:59:59", 7),
        bucket("2024-02-01 00:00:00", "2024-02-29 23:59:59", 2),
        bucket("2024-02-01 00:00:00", "2024-02-29 23:59:59", 2),
        bucket("2024-02-01 00:00:00", "2024-02-29 23:59:59", 2),
    ];
    let o = aggregate_of(format!("[{}]", list.join(",")));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let froms: Vec<String> = (o.stdout.lines())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["date_from"].to_string())
        .collect();
    assert_eq!(
        froms,
        [
            r#""2024-01-01T00:00:00Z""#,
            r#""2024-02-01T00:00:00Z""#,
            r#""2024-03-01T00:00:00Z""#
        ],
        "{}",
        o.stdout
    );
    assert!(
        o.stderr.contains("1990-01-01") && o.stderr.contains("outside"),
        "{}",
        o.stderr
    );
    assert_eq!(o.stderr.matches("twice").count(), 2, "{}", o.stderr);
    // A date_from that is no time at all: the answer cannot be read.
    let o = aggregate_of(format!(
        "[{}]",
        bucket("garbage\\u001b[2J", "2024-01-31 23:59:59", 1)
    ));
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(
        o.stderr.contains("date_from") && o.stderr.contains("not a timestamp"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains('\u{1b}'), "{}", o.stderr);
}

const GOOD_RUN: &str = "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a";

/// A log entry of `run` at `at` taking `duration`, task `task`.
fn entry(run: &str, task: &str, at: &str, duration: i64) -> String {
    format!(
        r#"{{"workflow_run_uuid":"{run}","task_uuid":"{task}","task_type":"query","is_successful":true,"duration":{duration},"output":"","metric_value":1,"executed_at":"{at}"}}"#
    )
}

#[test]
fn a_bad_log_entry_among_good_ones_is_left_out_with_a_warning() {
    let task = "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c00";
    let at = "2024-01-13T18:36:58Z";
    for (bad, says) in [
        (
            entry("not-a-uuid", task, at, 5),
            r#"workflow_run_uuid "not-a-uuid" is not a UUID"#,
        ),
        (
            entry(GOOD_RUN, "t\\u001b[2J", at, 5),
            r#"task_uuid "t\u{1b}[2J" is not a UUID"#,
        ),
        (
            entry(GOOD_RUN, task, "soon", 5),
            r#"executed_at "soon" is not a timestamp"#,
        ),
        (
            entry(GOOD_RUN, task, "2026-02-30T10:00:00Z", 5),
            "is not a timestamp",
        ),
        (entry(GOOD_RUN, task, at, -4), "duration -4 is negative"),
    ] {
        let body = format!(
            "[{},{bad},{}]",
            entry(GOOD_RUN, task, at, 1),
            entry(GOOD_RUN, task, at, 2)
        );
        let s = with_token(move |_, _| Action::Raw(json(200, &body)));
        let dir = tempfile::tempdir().unwrap();
        let o = client_run(
            &s.base(),
            dir.path(),
            &["logs", P1, "--since", "1h", "-o", "json"],
        );
        assert_eq!(o.code, 0, "{bad}: {}", o.stderr);
        let v: serde_json::Value =
            serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stdout));
        let durations: Vec<i64> = (v.as_array().unwrap().iter())
            .map(|e| e["duration"].as_i64().unwrap())
            .collect();
        assert_eq!(durations, [1, 2], "{bad}: {}", o.stdout);
        assert!(
            o.stderr.contains("log entry left out") && o.stderr.contains(says),
            "{bad}: {}",
            o.stderr
        );
        assert!(!o.stderr.contains('\u{1b}'), "{}", o.stderr);
    }
}

#[test]
fn a_run_start_without_wait_and_json_errors_name_the_bad_value_too() {
    // `run pipeline P` alone: never "started xyz".
    let s = with_token(|r, _| match r.method.as_str() {
        "POST" => Action::Raw(json(201, r#"{"pipeline_run_uuid":"xyz"}"#)),
        _ => Action::Raw(json(200, "[]")),
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["run", "pipeline", P1]);
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(!o.all().contains("started xyz"), "{}", o.all());
    assert!(o.stderr.contains(r#""xyz" (not a UUID)"#), "{}", o.stderr);
    // -o json: the error's JSON shape names the field and the value.
    let (good, _) = stats_of(GOOD.to_string());
    assert_eq!(good.code, 0, "{}", good.stderr);
    let body = stats_with("num_of_failures", "-3");
    let s = with_token(move |_, _| Action::Raw(json(200, &body)));
    let o = client_run(
        &s.base(),
        dir.path(),
        &["stats", "pipeline", P1, "-o", "json"],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    let e: serde_json::Value =
        serde_json::from_str(o.stderr.trim()).unwrap_or_else(|e| panic!("{e}: {}", o.stderr));
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("num_of_failures") && msg.contains("-3 is negative"),
        "{msg}"
    );
}
