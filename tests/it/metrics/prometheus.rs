//! `metrics serve` scraped by a real Prometheus server (Debian package
//! `prometheus`) on loopback: the target is `up` and `ylem_up` has the
//! expected values; a port in use and a remote address are refused.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::common::process::{Killed, free_port, try_wait_for};
use crate::common::sandbox::{Sandbox, start};

/// A plain HTTP/1.0 GET on loopback: the body, or `None` if it failed.
fn get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let (head, body) = text.split_once("\r\n\r\n")?;
    head.starts_with("HTTP/1.").then(|| body.to_string())
}

/// `ylemctl metrics serve` on `port` for `ids`, once it says it serves.
fn serve(sb: &Sandbox, port: u16, ids: &[&str]) -> Killed {
    serve_with(sb, port, ids, &["--cache", "1s"], Stdio::null())
}

fn serve_with(sb: &Sandbox, port: u16, ids: &[&str], flags: &[&str], stderr: Stdio) -> Killed {
    let listen = format!("127.0.0.1:{port}");
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .env(
            "YLEM_CONFIG_DIR",
            std::env::temp_dir().join("ylemctl-metrics-none"),
        )
        .args(["metrics", "serve", "--listen", &listen])
        .args(flags)
        .args(ids)
        .stdout(Stdio::piped())
        .stderr(stderr);
    let mut child = c.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("Serving http://"), "{line}");
    Killed(child)
}

/// `f`'s first `Some` within `secs` seconds (the shared bounded poll).
fn wait_for<T>(secs: u64, f: impl FnMut() -> Option<T>) -> Option<T> {
    try_wait_for(Duration::from_secs(secs), f)
}

fn prometheus(dir: &std::path::Path, target: u16) -> (Killed, u16) {
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: ylem\n    static_configs:\n      - targets: ['127.0.0.1:{target}']\n"
        ),
    )
    .unwrap();
    let port = free_port();
    let child = Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("prometheus (Debian package prometheus) is needed for the metrics tests");
    (Killed(child), port)
}

fn query(port: u16, q: &str) -> Option<Vec<Value>> {
    let body = get(port, &format!("/api/v1/query?query={q}"))?;
    let v: Value = serde_json::from_str(&body).ok()?;
    let r = v["data"]["result"].as_array()?.clone();
    (!r.is_empty()).then_some(r)
}

#[test]
fn a_real_prometheus_scrapes_the_exporter() {
    let sb = start("ylem");
    let p0 = sb.pipelines[0].0.as_str();
    let wf = format!("workflow:{}", sb.workflows[0]);
    let port = free_port();
    let _exporter = serve(&sb, port, &[p0, &wf]);
    // Its own pages first.
    let text = get(port, "/metrics").expect("/metrics");
    assert_eq!(crate::status::promtool(&text).0, 0, "{text}");
    assert!(get(port, "/").unwrap().contains("href=\"/metrics\""));

    let dir = tempfile::tempdir().unwrap();
    let (_prom, api) = prometheus(dir.path(), port);
    let up = wait_for(60, || {
        let body = get(api, "/api/v1/targets")?;
        let v: Value = serde_json::from_str(&body).ok()?;
        let t = v["data"]["activeTargets"].as_array()?.first()?.clone();
        (t["health"] == "up").then_some(t)
    });
    assert!(up.is_some(), "the exporter's target never came up");
    // Prometheus says its 1 s scrape timeout: the exporter answers within
    // 0.5 s, so on a busy machine one scrape may find the pipeline not yet
    // answered (ylem_up 0); the next ones have it from the cache.
    let want = |r: &Value| {
        if r["metric"]["kind"] == "pipeline" {
            "1"
        } else {
            "0"
        }
    };
    let rows = wait_for(30, || {
        let r = query(api, "ylem_up")?;
        (r.len() == 2 && r.iter().all(|r| r["value"][1] == want(r))).then_some(r)
    });
    assert!(rows.is_some(), "{:?}", query(api, "ylem_up"));
    let ts = query(api, "ylem_last_run_timestamp_seconds").expect("a last-run series");
    assert_eq!(ts[0]["metric"]["uuid"], p0);
}

#[test]
fn a_port_in_use_and_a_remote_address_are_refused() {
    let sb = start("spec");
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = held.local_addr().unwrap().to_string();
    let p0 = sb.pipelines[0].0.as_str();
    let o = sb.run(&["metrics", "serve", "--listen", &addr, p0]);
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stderr.contains("cannot listen on"), "{}", o.stderr);
    let o = sb.run(&["metrics", "serve", "--listen", "0.0.0.0:0", p0]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--allow-remote"), "{}", o.stderr);
    let o = sb.run(&[
        "metrics",
        "serve",
        "--listen",
        "127.0.0.1:0",
        "no-such-alias",
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

#[test]
fn ctrl_c_stops_the_exporter_with_exit_0() {
    let sb = start("spec");
    let port = free_port();
    let mut e = serve(&sb, port, &[sb.pipelines[0].0.as_str()]);
    let pid = e.0.id().to_string();
    Command::new("kill").args(["-INT", &pid]).status().unwrap();
    let code = wait_for(10, || e.0.try_wait().ok().flatten().map(|s| s.code()));
    assert_eq!(code, Some(Some(0)));
}

/// The guide's alert rules and scrape config (docs/monitoring.md) are what
/// promtool accepts.
#[test]
fn the_guides_prometheus_examples_pass_promtool() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/monitoring.md"))
            .unwrap();
    let block = |after: &str| -> String {
        let rest = &readme[readme.find(after).expect(after)..];
        let start = rest.find("```yaml\n").unwrap() + "```yaml\n".len();
        rest[start..start + rest[start..].find("```").unwrap()].to_string()
    };
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("ylem.rules.yml");
    std::fs::write(&rules, block("Alert rules")).unwrap();
    let config = dir.path().join("prometheus.yml");
    std::fs::write(&config, block("Or run the exporter")).unwrap();
    for args in [["check", "rules"], ["check", "config"]] {
        let file = if args[1] == "rules" { &rules } else { &config };
        let o = Command::new("promtool")
            .args(args)
            .arg(file)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "promtool {args:?}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Scrapes within `--cache` are answered from one fetch: ten scrapes cost
/// the service one round of requests; after the cache and the token
/// expired (the token, of 1 s, first), a scrape fetches again and is still
/// up.
#[test]
fn scrapes_share_one_cached_fetch() {
    let sb = crate::common::sandbox::start_with("spec", &["--token-ttl", "1s"]);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.log");
    let port = free_port();
    let p0 = sb.pipelines[0].0.as_str();
    let file = std::fs::File::create(&log).unwrap();
    let _e = serve_with(
        &sb,
        port,
        &[p0],
        &["-v", "--cache", "2s"],
        Stdio::from(file),
    );
    let stats_requests = || {
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .filter(|l| l.contains("/v1/stats/"))
            .count()
    };
    let first = get(port, "/metrics").unwrap();
    let one_round = stats_requests();
    assert!(one_round >= 2, "last run and 24 h statistics: {one_round}");
    for _ in 0..9 {
        assert_eq!(get(port, "/metrics").unwrap(), first);
    }
    assert_eq!(stats_requests(), one_round, "ten scrapes, one fetch");
    // Scraped until a scrape fetches again: once the cache expired.
    let later = wait_for(30, || {
        let body = get(port, "/metrics").unwrap();
        (stats_requests() > one_round).then_some(body)
    })
    .expect("fetched again once the cache expired");
    assert!(
        later.contains(&format!("ylem_up{{kind=\"pipeline\",uuid=\"{p0}\"}} 1")),
        "{later}"
    );
}
