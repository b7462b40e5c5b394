//! Hostile and broken servers (issue 32): bodies that never end (chunked,
//! or with a huge `Content-Length`), that stall or are cut off once, a log
//! that never completes an entry, 429 with a long `Retry-After`, a token
//! endpoint that reads only the query string, and a history lookup that
//! fails. A child that could grow without bound runs under an address-space
//! cap with its peak RSS sampled, so a regression fails the test, not the
//! machine.

use crate::common;

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::faultserver::*;
use common::login::ylem_in;
use common::report::Scenario;
use common::sandbox::{self, Sandbox};
use common::*;

/// The address space a child may map: a tokio binary maps a few hundred MB
/// of it (thread stacks, allocator arenas) and touches little; a read
/// without bound dies here (exit by abort) instead of taking the machine.
const ADDRESS_SPACE: u64 = 1 << 30;

/// The bound the issue sets on a command against an endless body.
const PEAK_KIB: i64 = 32 * 1024;

/// A run of the binary: its output, its peak RSS (KiB) and how long it took.
struct Ran {
    out: Out,
    peak_kib: i64,
    took: Duration,
}

/// The child's high-water mark of resident memory, from its own status.
fn vm_hwm(pid: u32) -> Option<i64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Run `ylemctl args` with `env` (and a config directory of its own) under
/// the address-space cap, sampling its peak RSS until it exits; killed
/// (and the test failed) after a minute.
fn capped(args: &[&str], env: &[(&str, &str)]) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir.path())
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        c.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: ADDRESS_SPACE,
                rlim_max: ADDRESS_SPACE,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &lim) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let started = Instant::now();
    let mut child = c.spawn().unwrap();
    let pipe = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = pipe(Box::new(child.stdout.take().unwrap()));
    let err = pipe(Box::new(child.stderr.take().unwrap()));
    let mut peak = 0;
    let status = loop {
        if let Some(k) = vm_hwm(child.id()) {
            peak = peak.max(k);
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after a minute (peak {peak} KiB)");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ran {
        out: Out {
            code: status.code().unwrap_or(-1),
            stdout: out.join().unwrap(),
            stderr: err.join().unwrap(),
        },
        peak_kib: peak,
        took: started.elapsed(),
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
fn endless_kinds() -> Vec<(&'static str, Action)> {
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
        "stats, last-run and status against a body that never ends (chunked, a 100 GB Content-Length, or until close) end with exit 5 naming 8 MiB and the path, under 32 MB peak RSS, within --timeout + 10 s",
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
                r.out.stderr.contains("larger than 8 MiB"),
                "{what}: {}",
                r.out.stderr
            );
            assert!(
                r.out.stderr.contains("/v1/stats/"),
                "{what}: {}",
                r.out.stderr
            );
            assert!(r.peak_kib < PEAK_KIB, "{what}: peak {} KiB", r.peak_kib);
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
                    || r.out.stderr.contains("larger than 64 MiB"),
                "{what}: {}",
                r.out.stderr
            );
            if every.is_some() {
                assert!(
                    r.out.stderr.contains("no complete entry for 2.0s"),
                    "{what}: {}",
                    r.out.stderr
                );
                assert!(r.peak_kib < PEAK_KIB, "{what}: peak {} KiB", r.peak_kib);
            }
            assert!(r.peak_kib < 256 * 1024, "{what}: peak {} KiB", r.peak_kib);
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
        "429-retry-after",
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

/// The token requests the sandbox logged (`POST /v1/oauth/token` and the
/// names of any query parameters).
fn token_log(sb: &Sandbox) -> Vec<String> {
    sb.requests()
        .into_iter()
        .filter(|r| r.contains("/v1/oauth/token"))
        .collect()
}

const BODY_FORM: &str = "POST /v1/oauth/token";
const QUERY_FORM: &str = "POST /v1/oauth/token?grant_type&client_id&client_secret";
const REFRESH_QUERY: &str = "POST /v1/oauth/token?grant_type&client_id&refresh_token";

#[test]
fn token_parameters_go_in_the_body_and_never_in_a_url() {
    let mut sc = Scenario::new(
        "token-body",
        "secret",
        "the token request sends its parameters as a form body: no parameter in the URL in the sandbox's request log, -vv shows the body with client_secret=*** and no secret",
    );
    let sb = sandbox::start("spec");
    let p = &sb.pipelines[0].0;
    let o = sb.run(&["stats", "pipeline", p, "-vv"]);
    sc.check(&o);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(
        o.stderr.contains("application/x-www-form-urlencoded"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("client_secret=***"), "{}", o.stderr);
    assert!(!o.stderr.contains("token?"), "{}", o.stderr);
    assert_eq!(token_log(&sb), [BODY_FORM], "{:?}", sb.requests());
    sc.done();
}

#[test]
fn a_server_reading_only_the_query_is_asked_there_once_with_a_warning() {
    let mut sc = Scenario::new(
        "token-query-fallback",
        "secret",
        "against a token endpoint that reads only the query (sandbox --token-params query; a fault server answering a form body 400 invalid_request), the body is refused once, the query form works with a warning on stderr",
    );
    let sb = sandbox::start_with(
        "spec",
        &["--token-params", "query", "--task-delay", "100ms"],
    );
    let p = &sb.pipelines[0].0;
    let o = sb.run(&["stats", "pipeline", p]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(
        o.stderr.contains("warning:") && o.stderr.contains("access logs"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("client secret"), "{}", o.stderr);
    assert_eq!(token_log(&sb), [BODY_FORM, QUERY_FORM]);
    // A recording server that answers a form body 400 invalid_request.
    let s = FaultServer::start(|r, _| {
        if !r.path.starts_with("/v1/oauth/token") {
            Action::Raw(json(200, STATS))
        } else if r.path.contains("client_secret=") {
            token_response()
        } else {
            Action::Raw(json(
                400,
                r#"{"error":"invalid_request","error_description":"x"}"#,
            ))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
    sc.check(&o);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let tokens: Vec<Seen> = s
        .seen()
        .into_iter()
        .filter(|r| r.path.starts_with("/v1/oauth/token"))
        .collect();
    assert_eq!(tokens.len(), 2, "{tokens:?}");
    assert_eq!(tokens[0].path, "/v1/oauth/token", "the first in the body");
    assert!(tokens[0].body.contains(&format!("client_secret={SECRET}")));
    assert!(o.stderr.contains("warning:"), "{}", o.stderr);
    sc.done();
}

/// `login` of the sandbox's client into `dir`.
fn login(sb: &Sandbox, dir: &std::path::Path) -> Out {
    let args = [
        "login",
        "--base-url",
        &sb.base,
        "--client-id",
        &sb.client_id,
        "--client-secret-stdin",
        "--store",
        "file",
    ];
    ylem_in(dir, &args, Some(&format!("{}\n", sb.secret)), &[])
}

#[test]
fn a_profile_remembers_the_query_form_for_new_tokens_and_refreshes() {
    let mut sc = Scenario::new(
        "token-query-remembered",
        "secret",
        "a profile that learnt the query form at login keeps `token_params = \"query\"`: its next token request and its refresh go straight to the query form (no refused body first); a profile without the key learns it again at a refresh, with the warning",
    );
    let sb = sandbox::start_with(
        "spec",
        &[
            "--token-params",
            "query",
            "--token-ttl",
            "2s",
            "--task-delay",
            "100ms",
        ],
    );
    let p = sb.pipelines[0].0.clone();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = login(&sb, d);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(o.stderr.contains("warning:"), "{}", o.stderr);
    let config = d.join("config.toml");
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("token_params = \"query\"")
    );
    assert_eq!(token_log(&sb), [BODY_FORM, QUERY_FORM]);
    // No cached token: a new one, asked in the query form at once.
    std::fs::remove_file(d.join("credentials/default.token.json")).unwrap();
    let o = ylem_in(d, &["stats", "pipeline", &p], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(!o.stderr.contains("warning:"), "{}", o.stderr);
    assert_eq!(token_log(&sb)[2..], [QUERY_FORM]);
    // Past half its 2 s lifetime the token is refreshed, in the query form.
    std::thread::sleep(Duration::from_millis(1300));
    let o = ylem_in(d, &["stats", "pipeline", &p], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert_eq!(token_log(&sb)[3..], [REFRESH_QUERY]);
    // Forgotten: the refresh tries the body, is refused, and learns again.
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("token_params = \"query\"\n", "")).unwrap();
    std::thread::sleep(Duration::from_millis(1300));
    let o = ylem_in(d, &["stats", "pipeline", &p], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(
        o.stderr.contains("refresh token now reaches"),
        "{}",
        o.stderr
    );
    assert_eq!(token_log(&sb)[4..], [BODY_FORM, REFRESH_QUERY]);
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("token_params = \"query\"")
    );
    sc.check_dir(d);
    sc.done();
}

#[test]
fn an_unknown_client_id_is_an_auth_error_with_a_hint() {
    let sb = sandbox::start("ylem");
    let p = &sb.pipelines[0].0;
    let o = sb.run_with(
        &["stats", "pipeline", p],
        &[("YLEM_CLIENT_ID", "0f0e0d0c-0000-4000-8000-000000000000")],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("server_error"), "{}", o.stderr);
    assert!(o.stderr.contains("check the client id"), "{}", o.stderr);
}

/// Forward a request to the sandbox as it came, and its answer back whole.
fn forward(base: &str, r: &Seen) -> Vec<u8> {
    let host = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(host).unwrap();
    let mut head = format!(
        "{} {} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n",
        r.method, r.path
    );
    for (k, v) in &r.headers {
        if !["host", "connection", "content-length"].contains(&k.to_ascii_lowercase().as_str()) {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
    }
    head.push_str(&format!("content-length: {}\r\n\r\n", r.body.len()));
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(r.body.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    out
}

/// Whether a request is a history lookup: a pipeline's log from a day or
/// more back (a wait's own polls ask from ten minutes back).
fn is_history(r: &Seen) -> bool {
    let Some(rest) = r.path.split("/logs/").nth(1) else {
        return false;
    };
    let from = chrono::NaiveDate::parse_from_str(&rest[..10.min(rest.len())], "%Y-%m-%d");
    from.is_ok_and(|d| d < chrono::Utc::now().date_naive() - chrono::Duration::hours(20))
}

#[test]
fn a_wait_whose_history_lookup_fails_still_ends_on_the_historys_task_set() {
    let mut sc = Scenario::new(
        "history-fault",
        "fault",
        "run --wait whose history lookup is cut off once, or fails for its first 9 requests (every try before the start), ends succeeded with completion 'history'; the lasting failure is a warning on stderr and history is asked again at the polls",
    );
    let sb = sandbox::start("spec");
    let reliable = sb.banner["pipelines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["notes"].to_string().contains("always succeed"))
        .expect("a pipeline whose runs always succeed")["uuid"]
        .as_str()
        .unwrap()
        .to_string();
    for failures in [1, 9] {
        let base = sb.base.clone();
        let failed = std::sync::atomic::AtomicUsize::new(0);
        let proxy = FaultServer::start(move |r, _| {
            if is_history(r) && failed.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < failures
            {
                let mut b = open_head(200);
                b.extend(b"[{\"workflow_run_uuid\":\"x");
                Action::ResetAfter(b)
            } else {
                Action::Raw(forward(&base, r))
            }
        });
        let env = [
            ("YLEM_BASE_URL", proxy.base()),
            ("YLEM_CLIENT_ID", sb.client_id.clone()),
            ("YLEM_CLIENT_SECRET", sb.secret.clone()),
        ];
        let args = [
            "run",
            "pipeline",
            &reliable,
            "--wait",
            "--poll",
            "200ms",
            "--wait-timeout",
            "60s",
            "-o",
            "json",
        ];
        let o = ylem(&args, &strs(&env));
        sc.check(&o);
        assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
        assert_eq!(o.code, 0, "{failures} failures: {}", o.stderr);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        let row = if v.is_array() { &v[0] } else { &v };
        assert_eq!(row["verdict"], "succeeded", "{row}");
        assert_eq!(
            row["completion"], "history",
            "{failures} failures: {row}\n{}",
            o.stderr
        );
        if failures > 1 {
            assert!(
                o.stderr.contains("warning: cannot read the history"),
                "{}",
                o.stderr
            );
        }
        let history = proxy.seen().iter().filter(|r| is_history(r)).count();
        assert!(history > failures, "asked again: {history}");
    }
    sc.done();
}
