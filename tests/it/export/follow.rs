//! `export otlp --follow`: each run exported once, when it finishes, across
//! a SIGTERM and a restart (the cursor in the state directory advances
//! only on the receiver's acknowledgement), and across a receiver that
//! answers 503 for a while (asked again with backoff, nothing lost or
//! repeated); SIGTERM ends it cleanly, exit 0.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common;

use common::process::{signal, wait_until};
use common::receiver::Receiver;
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

use super::traces::traces;

/// The follower, with a config (and so state) directory that outlives it.
fn follower(sb: &Sandbox, config: &std::path::Path, p: &str, endpoint: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .args([
            "export",
            "otlp",
            p,
            "--follow",
            "--poll",
            "1s",
            "--since",
            "1h",
            "--endpoint",
            endpoint,
        ])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", config)
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .env("YLEM_SETTLE", "3s")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn sigterm(child: &mut Child) -> i32 {
    signal(child, libc::SIGTERM, Duration::from_secs(20)).expect("the follower ends on SIGTERM")
}

/// How many root spans each trace got: 1 each is "exported once".
fn roots_per_run(spans: &[Value]) -> Vec<(String, usize)> {
    traces(spans)
        .into_iter()
        .map(|(t, s)| {
            let roots = s
                .iter()
                .filter(|x| x["parent_span_id"].as_str().unwrap_or("").is_empty())
                .count();
            (t, roots)
        })
        .collect()
}

fn start_run(sb: &Sandbox, p: &str) -> String {
    let v = sb.json(&["run", "pipeline", p]);
    let row = if v.is_array() { &v[0] } else { &v };
    row["run_uuid"].as_str().unwrap().replace('-', "")
}

fn has(rx: &Receiver, hex: &str) -> bool {
    rx.received().iter().any(|s| s["trace_id"] == hex)
}

#[test]
fn killed_and_restarted_between_runs_it_exports_each_run_exactly_once() {
    for dialect in ["ylem", "spec"] {
        let sb = start_with(dialect, &["--task-delay", "100ms"]);
        let p = sb.pipeline_named("hourly-inventory-refresh");
        let config = tempfile::tempdir().unwrap();
        let rx = Receiver::otlp(&[]);
        let mut f = follower(&sb, config.path(), &p, &rx.url());
        let first = start_run(&sb, &p);
        wait_until(Duration::from_secs(90), "the first run exported", || {
            has(&rx, &first)
        });
        assert_eq!(sigterm(&mut f), 0, "SIGTERM ends it cleanly");
        let said = std::io::read_to_string(f.stderr.take().unwrap()).unwrap();
        assert!(said.contains("stopped: exported"), "{said}");
        // A run that finishes while no follower runs...
        let second = start_run(&sb, &p);
        let run2 = uuid::Uuid::parse_str(&second).unwrap().to_string();
        sb.finished(&run2, Duration::from_secs(60));
        // ...is exported by the next one, and nothing twice.
        let mut f = follower(&sb, config.path(), &p, &rx.url());
        wait_until(Duration::from_secs(90), "the second run exported", || {
            has(&rx, &second)
        });
        // A few more looks with nothing new.
        let before = rx.requests().len();
        std::thread::sleep(Duration::from_secs(3));
        assert_eq!(sigterm(&mut f), 0);
        assert_eq!(
            rx.requests().len(),
            before,
            "{dialect}: no request without a new run"
        );
        let counts = roots_per_run(&rx.received());
        assert!(
            counts.iter().all(|(_, n)| *n == 1),
            "{dialect}: each run once: {counts:?}"
        );
        assert!(counts.len() >= 2, "{counts:?}");
        // The cursor is in the state directory, private.
        let state = config.path().join("state");
        let files: Vec<_> = std::fs::read_dir(&state).unwrap().flatten().collect();
        assert_eq!(files.len(), 1, "one cursor: {files:?}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = files[0].metadata().unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }
}

#[test]
fn a_receiver_answering_503_then_200_gets_every_run_once() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let ids: Vec<&str> = sb.pipelines.iter().map(|(p, _)| p.as_str()).collect();
    // Once: the receiver's two 503s are retried after its Retry-After.
    let rx = Receiver::otlp(&["--fail", "503:2", "--retry-after", "1"]);
    let endpoint = rx.url();
    let mut args = vec!["export", "otlp"];
    args.extend(&ids);
    args.extend(["--since", "1d", "--endpoint", &endpoint]);
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("retried"), "{}", o.stderr);
    let statuses: Vec<i64> = rx
        .requests()
        .iter()
        .map(|r| r["status"].as_i64().unwrap())
        .collect();
    assert_eq!(&statuses[..2], &[503, 503], "{statuses:?}");
    assert!(statuses[2..].iter().all(|s| *s == 200), "{statuses:?}");
    let want = super::traces::finished_runs(&sb);
    let counts = roots_per_run(&rx.received());
    assert_eq!(counts.len(), want.len());
    assert!(counts.iter().all(|(_, n)| *n == 1), "{counts:?}");

    // Following: a receiver that keeps answering 503 past the retries of
    // one delivery is asked again at the next look, with backoff, and
    // gets each run once when it recovers.
    let p = sb.pipeline_named("hourly-inventory-refresh");
    let rx = Receiver::otlp(&["--fail", "503:8", "--retry-after", "0"]);
    let config = tempfile::tempdir().unwrap();
    let mut f = follower(&sb, config.path(), &p, &rx.url());
    let run = start_run(&sb, &p);
    wait_until(
        Duration::from_secs(120),
        "the run exported after the 503s",
        || has(&rx, &run),
    );
    assert_eq!(sigterm(&mut f), 0);
    let said = std::io::read_to_string(f.stderr.take().unwrap()).unwrap();
    assert!(said.contains("503"), "the failed delivery is said: {said}");
    let counts = roots_per_run(&rx.received());
    assert!(counts.iter().all(|(_, n)| *n == 1), "{counts:?}");
    let fails = rx.requests().iter().filter(|r| r["status"] == 503).count();
    assert_eq!(fails, 8);
}
