//! Hostile and broken servers (issue 32), here: bodies that never end
//! (chunked, or with a huge `Content-Length`), that stall or are cut off
//! once, a log that never completes an entry, 429 with a long
//! `Retry-After`, a token endpoint that reads only the query string, and a
//! history lookup that fails. A child that could grow without bound runs
//! under an address-space cap with its peak RSS sampled, so a regression
//! fails the test, not the machine (the exporter's own: `metrics::hostile`).
//! Beside them: `faults` and `bodies` (the scenario matrices), `text`
//! (hostile text from the server), `server_data`, `retry_after` (the causes
//! named), `memory` (bounded memory), `token`, `wait` and `tls_proxy`.

mod bodies;
mod faults;
mod memory;
mod retry_after;
mod server_data;
mod text;
mod tls_proxy;
mod token;
mod wait;

use crate::common;

use std::time::Duration;

use common::faultserver::*;
use common::measured;
use common::report::Scenario;
use common::*;

/// The bound the issue sets on a command against an endless body (plus
/// the debug binary's allowance under a plain `cargo test`: see
/// `common::measured`).
pub fn peak_bound() -> i64 {
    measured::bound(measured::ISSUE_KIB)
}

/// A run of the binary: its output, its peak RSS (KiB) and how long it took.
struct Ran {
    out: Out,
    peak_kib: i64,
    took: Duration,
}

/// Run the measured binary (`common::measured`) with `args` and `env` (and
/// a config directory of its own) under the address-space cap, sampling
/// its peak RSS until it exits; killed (and the test failed) after a minute.
fn capped(args: &[&str], env: &[(&str, &str)]) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let mut c = measured::command(dir.path());
    c.envs(env.iter().copied()).args(args);
    let m = measured::run(c, true, Duration::from_secs(60));
    Ran {
        out: Out {
            code: m.code,
            stdout: m.stdout,
            stderr: m.stderr,
        },
        peak_kib: m.peak_kib,
        took: m.took,
    }
}

/// A body that never ends, fed at about 16 MB/s (a 64 KiB piece every 4 ms:
/// slow enough for the sampling to see the peak, fast enough that a read
/// without a bound would pass the cap in a minute).
fn endless(head: &str, start: &[u8], filler: Vec<u8>) -> Action {
    Action::Endless {
        head: head.as_bytes().to_vec(),
        start: start.to_vec(),
        filler,
        every: Some(Duration::from_millis(4)),
        hold: Duration::from_secs(90),
    }
}

const SPACES: usize = 64 * 1024;

/// The three endless bodies: chunked, a huge `Content-Length`, and one
/// ended by closing the connection.
pub fn endless_kinds() -> Vec<(&'static str, Action)> {
    let stats = br#"{"num_of_successes":1"#;
    let mut chunk = format!("{SPACES:x}\r\n").into_bytes();
    chunk.extend(vec![b' '; SPACES]);
    chunk.extend(b"\r\n");
    let mut first = format!("{:x}\r\n", stats.len()).into_bytes();
    first.extend(stats);
    first.extend(b"\r\n");
    vec![
        (
            "chunked",
            endless(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
                &first,
                chunk,
            ),
        ),
        (
            "huge content-length",
            endless(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000000000\r\n\r\n",
                stats,
                vec![b' '; SPACES],
            ),
        ),
        (
            "until close",
            endless(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n",
                stats,
                vec![b' '; SPACES],
            ),
        ),
    ]
}

fn strs<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'a str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[test]
fn an_endless_body_ends_with_a_size_error_in_flat_memory() {
    let mut sc = Scenario::new(
        "endless-body",
        "fault",
        "stats, last-run and status against a body that never ends (chunked, a 100 GB Content-Length, or until close) end with exit 5 naming 4 MiB and the path, under 32 MB peak RSS, within --timeout + 10 s",
    );
    let timeout = Duration::from_secs(3);
    for (kind, _) in endless_kinds() {
        for cmd in [
            vec!["stats", "pipeline", P1],
            vec!["last-run", "pipeline", P1],
            vec!["status", P1],
        ] {
            let action = move || {
                endless_kinds()
                    .into_iter()
                    .find(|(k, _)| *k == kind)
                    .unwrap()
                    .1
            };
            let s = FaultServer::start(move |_, _| action());
            let env = token_env(&s.base());
            let mut args = cmd.clone();
            args.extend(["--timeout", "3s", "--retries", "0"]);
            let r = capped(&args, &strs(&env));
            let what = format!("{cmd:?} against an endless body ({kind})");
            eprintln!(
                "{what}: exit {}, peak {} KiB, {:?}",
                r.out.code, r.peak_kib, r.took
            );
            sc.check(&r.out);
            assert_eq!(r.out.code, 5, "{what}: {}", r.out.stderr);
            assert!(
                r.out.stderr.contains("larger than 4 MiB"),
                "{what}: {}",
                r.out.stderr
            );
            assert!(
                r.out.stderr.contains("/v1/stats/"),
                "{what}: {}",
                r.out.stderr
            );
            assert!(r.peak_kib < peak_bound(), "{what}: peak {} KiB", r.peak_kib);
            assert!(
                r.took < timeout + Duration::from_secs(10),
                "{what}: {:?}",
                r.took
            );
        }
    }
    sc.done();
}

#[test]
fn a_log_that_completes_no_entry_is_given_up_after_timeout() {
    let mut sc = Scenario::new(
        "log-no-entry",
        "fault",
        "a log that sends `[{\"a\":1` then spaces for ever (slowly, or as fast as read) ends with an error within --timeout + 10 s (no complete entry, or an entry over 64 MiB), its memory bounded",
    );
    for (every, filler) in [
        (Some(Duration::from_millis(50)), vec![b' '; 1024]),
        (None, vec![b' '; SPACES]),
    ] {
        let f = filler.clone();
        let s = FaultServer::start(move |_, _| Action::Endless {
            head: open_head(200),
            start: br#"[{"a":1"#.to_vec(),
            filler: f.clone(),
            every,
            hold: Duration::from_secs(90),
        });
        let env = token_env(&s.base());
        for cmd in ["logs", "runs"] {
            let args = [
                cmd,
                P1,
                "--since",
                "1d",
                "--timeout",
                "2s",
                "--retries",
                "0",
            ];
            let r = capped(&args, &strs(&env));
            let what = format!("{cmd} over a log that never completes an entry ({every:?})");
            eprintln!(
                "{what}: exit {}, peak {} KiB, {:?}",
                r.out.code, r.peak_kib, r.took
            );
            sc.check(&r.out);
            assert_ne!(r.out.code, 0, "{what}: {}", r.out.stderr);
            assert!(
                r.out.stderr.contains("no complete entry")
                    || r.out.stderr.contains("larger than 64 MiB")
                    || r.out
                        .stderr
                        .contains("larger than 16 MiB besides its output"),
                "{what}: {}",
                r.out.stderr
            );
            if every.is_some() {
                assert!(
                    r.out.stderr.contains("no complete entry for 2.0s"),
                    "{what}: {}",
                    r.out.stderr
                );
                assert!(r.peak_kib < peak_bound(), "{what}: peak {} KiB", r.peak_kib);
            }
            // As fast as read: the entry grows to its bound (16 MiB held
            // besides an output), within the issue's one-entry bound.
            let one_entry = measured::bound(measured::ONE_ENTRY_KIB);
            assert!(r.peak_kib < one_entry, "{what}: peak {} KiB", r.peak_kib);
            assert!(r.took < Duration::from_secs(12), "{what}: {:?}", r.took);
        }
    }
    sc.done();
}

/// A head declaring `STATS`' length, and the first half of it.
fn half_stats() -> Vec<u8> {
    let mut b = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        STATS.len()
    )
    .into_bytes();
    b.extend(&STATS.as_bytes()[..STATS.len() / 2]);
    b
}

#[test]
fn a_get_whose_body_stalls_or_is_cut_off_once_is_asked_again_and_succeeds() {
    let mut sc = Scenario::new(
        "body-cut-retried",
        "fault",
        "a statistics GET whose body is cut off (reset) or stalls past --timeout once is sent again, like a failure before the headers, and succeeds with 2 requests; with --retries 0 it fails",
    );
    for stall in [false, true] {
        let s = with_token(move |_, n| match (n, stall) {
            (0, false) => Action::ResetAfter(half_stats()),
            (0, true) => Action::Hang {
                head: half_stats(),
                hold: Duration::from_secs(5),
            },
            _ => Action::Raw(json(200, STATS)),
        });
        let dir = tempfile::tempdir().unwrap();
        let args = [
            "stats",
            "pipeline",
            P1,
            "--timeout",
            "1s",
            "-o",
            "json",
            "-v",
        ];
        let o = client_run(&s.base(), dir.path(), &args);
        sc.check(&o);
        assert_eq!(o.code, 0, "stall {stall}: {}", o.stderr);
        assert!(o.stderr.contains("retrying in"), "{}", o.stderr);
        assert_eq!(s.api().len(), 2, "stall {stall}: one retry");
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(v["num_of_successes"], 12, "{v}");
        // No retries allowed: the cut is the command's error.
        let s = with_token(|_, _| Action::ResetAfter(half_stats()));
        let o = client_run(
            &s.base(),
            dir.path(),
            &["stats", "pipeline", P1, "--retries", "0"],
        );
        sc.check(&o);
        assert_eq!(o.code, 5, "{}", o.stderr);
        assert!(o.stderr.contains("cut off"), "{}", o.stderr);
    }
    sc.done();
}

#[test]
fn a_429_announces_a_long_wait_and_a_final_one_names_retry_after() {
    let mut sc = Scenario::new(
        "429-announced",
        "fault",
        "a 429 with Retry-After: 3 is announced on stderr without -v and waited out; a final 429 names the Retry-After with a hint, not 'unexpected HTTP 429'",
    );
    let limited = || {
        Action::Raw(response(
            429,
            &[("retry-after", "3"), ("content-type", "application/json")],
            br#"{"code":429,"message":"Too Many Requests"}"#,
        ))
    };
    let s = with_token(move |_, n| match n {
        0 => limited(),
        _ => Action::Raw(json(200, STATS)),
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
    sc.check(&o);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("asked to wait 3.0s (Retry-After"),
        "{}",
        o.stderr
    );
    let api = s.api();
    assert!(api[1].at - api[0].at >= Duration::from_millis(2900));
    let s = with_token(move |_, _| limited());
    let o = client_run(
        &s.base(),
        dir.path(),
        &["stats", "pipeline", P1, "--retries", "0"],
    );
    sc.check(&o);
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("Retry-After: 3"), "{}", o.stderr);
    assert!(!o.stderr.contains("unexpected HTTP 429"), "{}", o.stderr);
    assert!(o.stderr.contains("hint:"), "{}", o.stderr);
    sc.done();
}
