//! Text a server chose, as data: a fault server puts line breaks, carriage
//! returns, terminal escape sequences and U+202E (right-to-left override) in
//! error bodies, task types and task messages; no stderr line and no table
//! line starts with the server's words, nothing of it moves the cursor or
//! reorders a line, and JSON keeps the data as it came.

use base64::Engine;

use crate::common;

use common::faultserver::*;
use common::report::Scenario;
use common::*;

/// What the server tries to slip in: a line of its own, a cursor move and
/// a clear screen, an overridden direction.
const FORGED: &str = "teapot\nerror: forged\r\x1b[2J\u{202e}gninraw\u{2066}\u{85}";

/// Whether `text` has a control, line break or bidirectional mark other
/// than our own line ends.
fn hazard(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        c != '\n'
            && (c.is_control()
                || matches!(
                    c,
                    '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
                )
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c))
    })
}

fn assert_shown_safely(what: &str, text: &str, starts: &[&str]) {
    assert_eq!(hazard(text), None, "{what}: {text:?}");
    for l in text.lines() {
        assert!(
            starts.iter().any(|s| l.starts_with(s)),
            "{what}: a line not of ours: {l:?} in {text:?}"
        );
        assert!(
            !l.trim_start().starts_with("error: forged"),
            "{what}: {l:?}"
        );
    }
}

#[test]
fn an_error_body_cannot_forge_stderr_lines() {
    let mut sc = Scenario::new(
        "hostile-error-text",
        "fault",
        "error bodies (JSON message, errors, error_description, plain text) with \\n, \\r, ESC sequences, U+202E, U+2066 and C1: no stderr line starts with the server's text, check's UNKNOWN stays one line, nothing unescaped reaches stderr or a table, -o json keeps the data",
    );
    let body_json = serde_json::json!({"code": 418, "message": FORGED, "errors": [FORGED]});
    let bodies = [
        json(418, &body_json.to_string()),
        response(418, &[("content-type", "text/plain")], FORGED.as_bytes()),
        json(500, &serde_json::json!({"error": FORGED}).to_string()),
        json(
            404,
            &serde_json::json!({"error": "x", "error_description": FORGED}).to_string(),
        ),
    ];
    let mut tried = 0;
    for (i, body) in bodies.into_iter().enumerate() {
        // A plain text body is shown by its first line, a bare `error`
        // value as JSON.
        let plain = i == 1 || i == 2;
        let s = FaultServer::start(move |_, _| Action::Raw(body.clone()));
        let env = token_env(&s.base());
        for cmd in [
            vec!["stats", "pipeline", P1],
            vec!["last-run", "task", P1],
            vec!["stats", "pipeline", P1, P2],
        ] {
            tried += 1;
            let o = run_env(&cmd, &env);
            sc.check(&o);
            assert!(o.code >= 4, "{cmd:?}: {}", o.stderr);
            assert_shown_safely(
                &format!("{cmd:?} stderr"),
                &o.stderr,
                &["error: ", "hint: ", "warning: "],
            );
            // A table row of several IDs names the error in a cell.
            if cmd.len() == 4 {
                assert_eq!(hazard(&o.stdout), None, "{}", o.stdout);
            }
            if cmd.len() == 3 && cmd[0] == "stats" {
                // A monitoring system reads check's first line as the
                // status and the rest as long output: one line here.
                let o = run_env(&["check", "pipeline", P1], &env);
                sc.check(&o);
                assert_eq!(o.stdout.lines().count(), 1, "{:?}", o.stdout);
                assert!(o.stdout.starts_with("UNKNOWN - "), "{:?}", o.stdout);
                assert_eq!(hazard(&o.stdout), None, "{:?}", o.stdout);
            }
            let mut json_cmd = cmd.clone();
            json_cmd.extend(["-o", "json"]);
            let o = run_env(&json_cmd, &env);
            let last = o.stderr.lines().last().unwrap_or("");
            let v: serde_json::Value = serde_json::from_str(last)
                .unwrap_or_else(|e| panic!("{json_cmd:?}: {e}: {}", o.stderr));
            let message = v["error"]["message"].as_str().unwrap();
            let kept = if plain { "teapot" } else { FORGED };
            assert!(message.contains(kept), "JSON keeps the data: {message:?}");
        }
    }
    assert_eq!(tried, 12);
    sc.done();
}

/// A log whose task type and failed task's messages carry FORGED.
fn hostile_log() -> String {
    let errors = serde_json::json!([{"Code": 4029, "Severity": "critical", "Message": FORGED}]);
    let output = base64::engine::general_purpose::STANDARD.encode(errors.to_string());
    let entry = serde_json::json!({
        "workflow_run_uuid": "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a",
        "task_uuid": "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d",
        "task_type": FORGED,
        "is_successful": false,
        "duration": 12,
        "output": output,
        "metric_value": 1.5,
        "executed_at": "2024-01-13T18:36:58.123Z",
    });
    format!("[{entry}]")
}

#[test]
fn task_types_and_messages_cannot_forge_table_lines() {
    let mut sc = Scenario::new(
        "hostile-task-text",
        "fault",
        "a log whose task type and failed task's messages carry \\n, \\r, ESC sequences and U+202E: no table line starts with them, they show escaped, -o json keeps them as sent",
    );
    let log = hostile_log();
    let s = FaultServer::start(move |_, _| Action::Raw(json(200, &log)));
    let env = token_env(&s.base());
    let window = ["--from", "2024-01-13", "--to", "2024-01-14"];
    for extra in [&[][..], &["--decode"][..]] {
        let mut cmd = vec!["logs", P1];
        cmd.extend(window);
        cmd.extend(extra);
        let o = run_env(&cmd, &env);
        sc.check(&o);
        assert_eq!(o.code, 0, "{cmd:?}: {}", o.stderr);
        assert_eq!(hazard(&o.stdout), None, "{cmd:?}: {}", o.stdout);
        for l in o.stdout.lines() {
            for word in ["error: forged", "gninraw", "teapot"] {
                assert!(!l.trim_start().starts_with(word), "{cmd:?}: {l:?}");
            }
        }
        assert!(
            o.stdout
                .contains("teapot\\nerror: forged\\r\\u{1b}[2J\\u{202e}")
        );
        // JSON keeps the data.
        cmd.extend(["-o", "json"]);
        let o = run_env(&cmd, &env);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(v[0]["task_type"], FORGED);
        if !extra.is_empty() {
            assert_eq!(v[0]["output"][0]["Message"], FORGED, "{}", o.stdout);
        }
    }
    sc.done();
}
