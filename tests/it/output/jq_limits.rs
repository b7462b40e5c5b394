//! `--jq` always ends (issue 43): `--max-time` bounds its evaluation (exit
//! 6, as every `--max-time`); an expression nested past the limit is exit
//! 2 naming it before any request; a filter that recurses without end,
//! builds a value too large or one nested too deeply is exit 5 naming the
//! limit; never a signal. Each child runs under a 1 GiB address-space cap.

use crate::common;

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::faultserver::*;
use common::*;

/// `stats pipeline P1 --jq EXPR` (and `extra`) against `s`, capped.
fn jq(s: &FaultServer, expr: &str, extra: &[&str]) -> (Out, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("YLEM_BASE_URL", s.base())
        .env("YLEM_TOKEN", TOKEN)
        .env("YLEM_CONFIG_DIR", dir.path())
        .args(["stats", "pipeline", P1, "--jq", expr])
        .args(extra)
        .stdin(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        c.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &lim) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let started = Instant::now();
    let o = c.output().unwrap();
    let out = Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert!(
        o.status.code().is_some(),
        "{expr:.60}: ended by a signal: {}",
        out.stderr
    );
    (out, started.elapsed())
}

fn server() -> FaultServer {
    FaultServer::start(|_, _| Action::Raw(json(200, STATS)))
}

#[test]
fn max_time_bounds_a_filter_that_never_ends() {
    let s = server();
    for expr in ["def f: f; f", "repeat(.) | empty", "last(range(1e10))"] {
        let (o, took) = jq(&s, expr, &["--max-time", "2s"]);
        assert_eq!(o.code, 6, "{expr}: {}", o.stderr);
        assert!(
            o.stderr.contains("--max-time of 2.0s"),
            "{expr}: {}",
            o.stderr
        );
        assert!(o.stderr.contains("--jq"), "{expr}: {}", o.stderr);
        // Not killed by the harness: it ended of itself, well before a minute.
        assert!(took < Duration::from_secs(60), "{expr}: {took:?}");
    }
    // A filter that prints without end is bounded too, its output streamed.
    let (o, _) = jq(&s, "repeat(.num_of_successes)", &["--max-time", "2s"]);
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stdout.starts_with("12\n12\n"), "{:.40}", o.stdout);
}

#[test]
fn nesting_past_the_limit_is_exit_2_before_any_request() {
    let s = server();
    let deep = format!("{}.{}", "(".repeat(4000), ")".repeat(4000));
    let (o, _) = jq(&s, &deep, &[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("the limit is 1000 levels"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.len() < 1000,
        "the whole expression echoed: {}",
        o.stderr.len()
    );
    let long = ".".repeat(70_000);
    let (o, _) = jq(&s, &long, &[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("longer than 65536 bytes"), "{}", o.stderr);
    assert!(s.seen().is_empty(), "{:?}", s.seen());
    // Long chains parse within the stack, or are exit 2 naming the limit.
    for (expr, want) in [
        (format!("{}.num_of_successes", ".|".repeat(5000)), "12"),
        (format!("{}1", "1+".repeat(10000)), "10001"),
    ] {
        let (o, _) = jq(&s, &expr, &[]);
        match o.code {
            0 => assert_eq!(o.stdout.trim(), want),
            2 => assert!(
                o.stderr.contains("nested too deeply to parse"),
                "{}",
                o.stderr
            ),
            c => panic!("{expr:.20}: exit {c}: {}", o.stderr),
        }
    }
}

#[test]
fn runaway_evaluation_is_exit_5_naming_the_limit() {
    let s = server();
    for (expr, limit) in [
        ("def f: 1+f; f", "recursion limit"),
        (
            "reduce range(1e6) as $i (null; [.])",
            "nested deeper than 10000 levels",
        ),
        ("[range(1e9)]", "memory limit (512 MiB)"),
    ] {
        let (o, _) = jq(&s, expr, &["--max-time", "120s"]);
        assert_eq!(o.code, 5, "{expr}: {}", o.stderr);
        assert!(o.stderr.contains(limit), "{expr}: {}", o.stderr);
    }
    // Under the limits a deep value is fine.
    let (o, _) = jq(&s, "reduce range(1000) as $i (null; [.]) | flatten", &[]);
    assert_eq!((o.code, o.stdout.as_str()), (0, "[null]\n"), "{}", o.stderr);
}

#[test]
fn a_limit_hit_with_o_json_is_the_json_error_object_exit_5() {
    let s = server();
    for (expr, limit) in [
        ("def f: 1+f; f", "recursion limit"),
        ("[range(1e9)]", "memory limit (512 MiB)"),
    ] {
        for out in ["json", "jsonl"] {
            let (o, _) = jq(&s, expr, &["--max-time", "120s", "-o", out]);
            assert_eq!(o.code, 5, "{expr} {out}: {}", o.stderr);
            let e: serde_json::Value = serde_json::from_str(o.stderr.trim())
                .unwrap_or_else(|err| panic!("{expr} {out}: {err}: {}", o.stderr));
            assert_eq!(e["error"]["kind"], "server", "{}", o.stderr);
            let msg = e["error"]["message"].as_str().unwrap();
            assert!(msg.contains(limit), "{expr}: {msg}");
            assert!(e["error"]["hint"].is_string(), "{}", o.stderr);
            // Dropped on purpose: no half result on stdout.
            assert!(o.stdout.is_empty(), "{expr} {out}: {}", o.stdout);
        }
        // Without -o the words stay text, as other errors.
        let (o, _) = jq(&s, expr, &["--max-time", "120s"]);
        assert_eq!(o.code, 5, "{expr}: {}", o.stderr);
        assert!(
            o.stderr.starts_with("error: --jq went past"),
            "{}",
            o.stderr
        );
    }
}
