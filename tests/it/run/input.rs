//! `run pipeline --input`: the input reaches the server byte for byte with
//! `Content-Type: application/json` in each form (inline, `@FILE`, `-`),
//! every bad form is exit 2 with nothing sent, a failed start with input is
//! never repeated, and the sandbox's ylem dialect hands the input to an
//! initial external trigger as the open-source server does.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common;

use common::faultserver::{FaultServer, Seen, response, route, run_starts};
use common::sandbox::{Sandbox, start_with};
use common::*;
use serde_json::Value;

/// A server that answers every run start 201, recording what it got.
fn starts() -> FaultServer {
    let s = FaultServer::routed();
    s.on(run_starts());
    s
}

fn posts(s: &FaultServer) -> Vec<Seen> {
    s.seen_method("POST")
}

fn content_type(r: &Seen) -> Option<&str> {
    r.header("content-type")
}

/// `ylemctl` with `stdin` written to its standard input.
fn ylem_stdin(args: &[&str], env: &[(&'static str, String)], stdin: &[u8]) -> Out {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir.path())
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("run ylemctl");
    let mut pipe = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    // Written from a thread: the child may exit (or fill its stdout)
    // before it has read everything.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let o = child.wait_with_output().unwrap();
    let _ = writer.join();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[test]
fn inline_input_is_the_body_byte_for_byte() {
    let s = starts();
    // Spacing, key order, escapes and a number form a re-serialiser would
    // change: the bytes must arrive as given.
    let input = "{ \"b\": 1.50, \"a\" : [\"\\u00e9\", \"é\"] , \"n\":-0 }";
    let o = run_env(
        &["run", "pipeline", P1, "--input", input],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let p = posts(&s);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].body.as_bytes(), input.as_bytes());
    assert_eq!(content_type(&p[0]), Some("application/json"));
    // A JSON number that looks like a flag is a value too.
    let o = run_env(
        &["run", "pipeline", P1, "--input", "-1"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(posts(&s)[1].body, "-1");
}

#[test]
fn without_input_the_body_stays_empty() {
    let s = starts();
    let o = run_env(&["run", "pipeline", P1], &token_env(&s.base()));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let p = posts(&s);
    assert!(p[0].body.is_empty());
    assert_eq!(content_type(&p[0]), None);
}

/// About 1 MB of JSON with a multi-byte character at a line start.
fn big_json() -> Vec<u8> {
    let mut s = String::from("[\n");
    for i in 0..15_000 {
        s.push_str(&format!(
            "  {{\"row\": {i}, \"sku\": \"ÄBC-{i:06}\", \"qty\": {}, \"note\": \"line\\n{i}\"}},\n",
            i % 7
        ));
    }
    s.push_str("  null\n]\n");
    s.into_bytes()
}

#[test]
fn a_file_input_is_sent_whole_and_v_shows_its_size_vv_only_its_start() {
    let s = starts();
    let body = big_json();
    assert!(body.len() > 1_000_000, "{}", body.len());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rows.json");
    std::fs::write(&file, &body).unwrap();
    let at = format!("@{}", file.display());
    let env = token_env(&s.base());
    let o = run_env(&["run", "pipeline", P1, "--input", &at, "-v"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let line = o
        .stderr
        .lines()
        .find(|l| l.starts_with("POST /v1/pipelines/"));
    let want = format!(", sent {}B", body.len());
    assert!(line.is_some_and(|l| l.ends_with(&want)), "{}", o.stderr);
    let o = run_env(&["run", "pipeline", P1, "--input", &at, "-vv"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("> content-type: application/json"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains(&format!("> content-length: {}", body.len()))
    );
    assert!(o.stderr.contains("more bytes)"), "{}", o.stderr);
    assert!(
        o.stderr.len() < 8_000,
        "the body is shortened: {}",
        o.stderr.len()
    );
    let p = posts(&s);
    assert_eq!(p.len(), 2);
    for r in &p {
        assert!(r.body.as_bytes() == body, "the file arrived as it is");
        assert_eq!(content_type(r), Some("application/json"));
    }
}

#[test]
fn stdin_is_read_once_and_the_same_bytes_go_to_every_id() {
    let s = starts();
    let input = b"{\"order_id\": 1001,\n \"items\": [1, 2, 3]}\n";
    let o = ylem_stdin(
        &["run", "pipeline", P1, P2, "--input", "-"],
        &token_env(&s.base()),
        input,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let p = posts(&s);
    let mut paths: Vec<&str> = p.iter().map(|r| r.path_only()).collect();
    paths.sort();
    let mut want = [
        format!("/v1/pipelines/{P1}/runs/"),
        format!("/v1/pipelines/{P2}/runs/"),
    ];
    want.sort();
    assert_eq!(paths, want);
    for r in &p {
        assert_eq!(r.body.as_bytes(), input);
        assert_eq!(content_type(r), Some("application/json"));
    }
}

#[test]
fn every_bad_input_is_exit_2_and_nothing_is_sent() {
    let s = FaultServer::routed();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\n  \"a\": 1,\n  \"b\": \n}\n").unwrap();
    let (bad, missing, folder) = (
        format!("@{}", bad.display()),
        format!("@{}", dir.path().join("missing.json").display()),
        format!("@{}", dir.path().display()),
    );
    // Past the bound (64 MiB), read no further.
    let huge = vec![b' '; (64 << 20) + 1];
    // (value, standard input, what the error must say)
    let cases: &[(&str, &[u8], &[&str])] = &[
        ("-", &huge, &["larger than 64 MiB"]),
        (
            "{\"a\":",
            b"",
            &["--input is not valid JSON", "line 1 column 5"],
        ),
        (
            "{\"a\":1} x",
            b"",
            &["trailing characters", "line 1 column 9"],
        ),
        ("[1,]", b"", &["line 1 column 4"]),
        ("", b"", &["--input is empty", "line 1 column 1"]),
        ("  ", b"", &["--input is empty", "line 1 column 3"]),
        (&bad, b"", &["not valid JSON", "line 4 column 1"]),
        (&missing, b"", &["cannot read", "missing.json"]),
        (&folder, b"", &["cannot read"]),
        ("@", b"", &["names no file"]),
        ("-", b"", &["--input - (standard input) is empty"]),
        (
            "-",
            b"{\"a\": 1}\n{\"b\": 2}\n",
            &["trailing characters", "line 2 column 1"],
        ),
        ("-", b"[\"\xff\"]", &["not UTF-8", "line 1 column 3"]),
    ];
    let env = vec![
        ("YLEM_BASE_URL", s.base()),
        ("YLEM_CLIENT_ID", CLIENT_ID.to_string()),
        ("YLEM_CLIENT_SECRET", SECRET.to_string()),
    ];
    for (value, stdin, says) in cases {
        let o = ylem_stdin(&["run", "pipeline", P1, "--input", value], &env, stdin);
        assert_eq!(o.code, 2, "{value:?}: {}", o.stderr);
        for s in *says {
            assert!(o.stderr.contains(s), "{value:?}: wants {s:?}: {}", o.stderr);
        }
        assert!(o.stderr.contains("hint:"), "{}", o.stderr);
    }
    let o = ylem_stdin(
        &["run", "pipeline", P1, "--input", "nope", "-o", "json"],
        &env,
        b"",
    );
    let v: Value = serde_json::from_str(o.stderr.trim()).unwrap();
    assert_eq!(v["error"]["kind"], "usage");
    let got = s.seen();
    assert!(got.is_empty(), "no request, not even a token: {got:?}");
}

#[test]
fn a_workflow_takes_no_input() {
    let s = FaultServer::routed();
    let o = run_env(
        &["run", "workflow", P2, "--input", "{}"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("no server documents an input for workflow"),
        "{}",
        o.stderr
    );
    assert!(s.seen().is_empty());
}

#[test]
fn a_start_with_input_answered_500_is_sent_once() {
    let s = FaultServer::routed();
    s.on(route().method("POST").answer(response(
        500,
        &[("content-type", "application/json")],
        b"",
    )));
    let o = run_env(
        &[
            "run",
            "pipeline",
            P1,
            "--input",
            "{\"a\":1}",
            "--retries",
            "3",
        ],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("may have started"), "{}", o.stderr);
    let p = posts(&s);
    assert_eq!(p.len(), 1, "exactly one run start");
    assert_eq!(p[0].body, "{\"a\":1}");
}

/// The sandbox pipeline that begins with an external trigger (added last).
fn triggered(sb: &Sandbox) -> &str {
    &sb.pipelines.last().unwrap().0
}

/// Start `p` with `args`, wait until the run is finished (the sandbox's
/// truth), and return the run's decoded log entries, oldest first (`logs`
/// given `read` too).
fn run_and_read(sb: &Sandbox, p: &str, args: &[&str], read: &[&str]) -> (Value, Vec<Value>) {
    let mut a = vec!["run", "pipeline", p, "-o", "jsonl"];
    a.extend_from_slice(args);
    let o = sb.run(&a);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let started: Value = serde_json::from_str(o.stdout.trim()).unwrap();
    let run = started["run_uuid"].as_str().unwrap().to_string();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let truth = loop {
        let t = sb.truth(&run);
        if t["finished"] == true || std::time::Instant::now() > deadline {
            break t;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(truth["finished"], true, "{truth}");
    // The window's end is a whole second (the path format): let the second
    // of the last entry pass, or it falls after the end.
    next_second();
    let mut logs = vec!["logs", p, "--run", &run, "--since", "1h", "--decode"];
    logs.extend_from_slice(read);
    let log = sb.json(&logs);
    let mut entries = log.as_array().unwrap().clone();
    entries.reverse();
    (truth, entries)
}

#[test]
fn the_ylem_sandbox_hands_the_input_to_the_external_trigger() {
    let sb = start_with("ylem", &["--task-delay", "50ms"]);
    let p = triggered(&sb).to_string();
    let input = r#"{"order_id": 7, "items": [{"sku": "A-1", "qty": 2}]}"#;
    let (truth, log) = run_and_read(&sb, &p, &["--input", input], &[]);
    assert_eq!(truth["input_bytes"], input.len());
    assert_eq!(truth["is_successful"], true);
    assert_eq!(log[0]["task_type"], "external_trigger");
    let sent: Value = serde_json::from_str(input).unwrap();
    assert_eq!(log[0]["output"], sent, "{:?}", log[0]);
    // `{}` is the trigger's configured test data.
    let (truth, log) = run_and_read(&sb, &p, &["--input", "{}"], &[]);
    assert_eq!(truth["input_bytes"], 2);
    assert_eq!(log[0]["output"]["test"], true, "{:?}", log[0]);
    assert!(log[0]["output"]["order_id"].is_number(), "{:?}", log[0]);
    // No input: the server hands on JSON null.
    let (truth, log) = run_and_read(&sb, &p, &[], &[]);
    assert_eq!(truth["input_bytes"], 0);
    assert_eq!(log[0]["output"], Value::Null, "{:?}", log[0]);
    assert_eq!(log[0]["decode_error"], Value::Null, "{:?}", log[0]);
}

#[test]
fn the_spec_sandbox_accepts_and_ignores_the_input() {
    let sb = start_with("spec", &["--task-delay", "50ms"]);
    let p = triggered(&sb).to_string();
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, &sb.key).unwrap();
    let read = ["--decrypt-key-file", key.to_str().unwrap()];
    let input = r#"{"order_id": 7}"#;
    let (truth, log) = run_and_read(&sb, &p, &["--input", input], &read);
    assert_eq!(truth["input_bytes"], input.len());
    assert_eq!(truth["is_successful"], true);
    assert_eq!(log[0]["task_type"], "external_trigger");
    assert_eq!(log[0]["decode_error"], Value::Null, "{:?}", log[0]);
    let sent: Value = serde_json::from_str(input).unwrap();
    assert_ne!(log[0]["output"], sent, "{:?}", log[0]);
}

/// Bash completes file names after `--input @`: COMP_WORDS as bash splits
/// them at the @ of COMP_WORDBREAKS, and as one word when @ is not in it.
#[test]
fn bash_completes_file_names_after_input_at() {
    let o = ylem(&["completions", "bash"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir(&files).unwrap();
    for f in ["order.json", "orders-2.json", "other.txt"] {
        std::fs::write(files.join(f), "{}").unwrap();
    }
    let script = dir.path().join("ylemctl.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    let complete = |words: &str| {
        let cmd = format!(
            "source {}; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             _ylemctl_with_aliases ylemctl \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\" | sort",
            script.display()
        );
        let out = Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &cmd])
            .current_dir(&files)
            .output()
            .expect("bash");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let want = "@order.json\n@orders-2.json\n";
    assert_eq!(complete("ylemctl run pipeline x --input @ ord"), want);
    assert_eq!(complete("ylemctl run pipeline x --input @ord"), want);
    assert_eq!(
        complete("ylemctl run pipeline x --wait --input @ ''"),
        "@order.json\n@orders-2.json\n@other.txt\n"
    );
}

/// Help and the man page say the contract's run line.
#[test]
fn help_and_man_page_show_the_run_line() {
    let line = "ylemctl run pipeline <ID>... [--input JSON|@FILE|-] [--wait [--wait-timeout D] [--poll D] [--settle D] [--expect-tasks N]]";
    let o = ylem(&["run", "--help"], &[]);
    assert!(o.stdout.contains(&format!("Usage: {line}")), "{}", o.stdout);
    assert!(
        o.stdout.contains("--input @order.json --wait"),
        "{}",
        o.stdout
    );
    let man = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/ylemctl-run.1"))
        .unwrap()
        .replace("\\-", "-")
        .replace("\\fBylemctl run\\fR", "ylemctl run");
    assert!(man.contains(line), "{man}");
}

/// The banner marks the pipelines that begin with an external trigger, in
/// each dialect, and the triggered pipeline is added after the others.
#[tokio::test]
async fn the_banner_says_which_pipelines_begin_with_a_trigger() {
    use ylem_sandbox::{Dialect, Options};
    for (dialect, says) in [
        (
            Dialect::Ylem,
            "begins with an external trigger: run --input becomes its output",
        ),
        (Dialect::Spec, "begins with an external trigger)"),
    ] {
        let run = ylem_sandbox::start(Options {
            listen: "127.0.0.1:0".parse().unwrap(),
            dialect,
            ..Options::default()
        })
        .await
        .unwrap();
        let banner = run.banner();
        let last = run.pipelines.last().unwrap();
        assert_eq!(last.name, "order-intake-webhook");
        assert_eq!(last.tasks[0].task_type, "external_trigger");
        let line = banner.lines().find(|l| l.contains(&last.uuid.to_string()));
        assert!(line.is_some_and(|l| l.contains(says)), "{banner}");
        for p in &run.pipelines {
            let line = banner.lines().find(|l| l.contains(&p.uuid.to_string()));
            let trigger = p.tasks[0].task_type == "external_trigger";
            assert_eq!(line.unwrap().contains(says), trigger, "{banner}");
        }
        run.shutdown().await;
    }
}

#[test]
fn vv_redacts_the_input_as_other_bodies() {
    let s = starts();
    let input = format!(r#"{{"access_token":"{TOKEN}","order_id":1}}"#);
    let o = run_env(
        &["run", "pipeline", P1, "--input", &input, "-vv"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(TOKEN), "{}", o.stderr);
    assert!(o.stderr.contains(r#""access_token":"***""#), "{}", o.stderr);
    // The server still gets what was given.
    assert_eq!(posts(&s)[0].body.as_bytes(), input.as_bytes());
}
