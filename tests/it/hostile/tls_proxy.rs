//! Real TLS and a real proxy: the sandbox served over HTTPS behind a TLS
//! terminator whose certificate comes from a CA made for the test (trusted
//! only through `SSL_CERT_FILE`), and requests sent through tinyproxy with
//! `HTTP_PROXY`/`HTTPS_PROXY`, bypassed with `NO_PROXY`. Loopback only.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::certs::{make_certs, tls_front};
use common::process::wait_until;
use common::sandbox::{Sandbox, start};

fn port_of(base: &str) -> u16 {
    base.rsplit(':').next().unwrap().parse().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ylemctl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run against `base` with the sandbox's client credentials and `more`.
fn run_at(sb: &Sandbox, base: &str, args: &[&str], more: &[(&str, &str)]) -> common::Out {
    let mut env = vec![
        ("YLEM_BASE_URL", base),
        ("YLEM_CLIENT_ID", sb.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", sb.secret.as_str()),
    ];
    env.extend_from_slice(more);
    common::ylem(args, &env)
}

#[test]
fn https_with_a_test_ca_trusted_only_through_ssl_cert_file() {
    let sb = start("ylem");
    let dir = temp_dir("tls");
    let (ca, cert, key) = make_certs(&dir);
    let port = tls_front(&cert, &key, port_of(&sb.base));
    let base = format!("https://127.0.0.1:{port}");
    let p = sb.pipelines[0].0.clone();
    let args = ["stats", "pipeline", p.as_str(), "-o", "json"];

    // Trusted through SSL_CERT_FILE: the whole exchange (token and
    // statistics) goes over TLS.
    let ok = run_at(
        &sb,
        &base,
        &args,
        &[("SSL_CERT_FILE", ca.to_str().unwrap())],
    );
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let v: serde_json::Value = serde_json::from_str(&ok.stdout).unwrap();
    assert!(v["num_of_successes"].is_number(), "{v}");

    // Not trusted: a network error (exit 6) that says the CA is not trusted
    // and how to trust it, sending nothing in the clear.
    let bad = run_at(&sb, &base, &["stats", "pipeline", p.as_str()], &[]);
    assert_eq!(bad.code, 6, "{}", bad.stderr);
    let err = bad.stderr.to_lowercase();
    assert!(err.contains("certificate"), "{}", bad.stderr);
    assert!(bad.stderr.contains("SSL_CERT_FILE"), "{}", bad.stderr);
    assert!(!bad.all().contains(&sb.secret));
}

/// tinyproxy on a free loopback port, with Basic authentication, logging
/// every request it forwards to `dir/tinyproxy.log`.
struct Tinyproxy {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Drop for Tinyproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const PROXY_PASSWORD: &str = "proxy-pw-HHHHGGGGFFFF";

fn tinyproxy(dir: &Path) -> Tinyproxy {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let log = dir.join("tinyproxy.log");
    let conf = dir.join("tinyproxy.conf");
    std::fs::write(
        &conf,
        format!(
            "Port {port}\nListen 127.0.0.1\nTimeout 30\nMaxClients 20\nAllow 127.0.0.1\n\
             LogLevel Info\nLogFile \"{}\"\nBasicAuth ylem {PROXY_PASSWORD}\n",
            log.display()
        ),
    )
    .unwrap();
    let child = Command::new("tinyproxy")
        .args(["-d", "-c"])
        .arg(&conf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tinyproxy is installed (.ci/run installs it)");
    // Ready when it accepts connections; bounded.
    wait_until(Duration::from_secs(10), "tinyproxy to listen", || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    Tinyproxy { child, port, log }
}

impl Tinyproxy {
    fn url(&self) -> String {
        format!("http://ylem:{PROXY_PASSWORD}@127.0.0.1:{}", self.port)
    }
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

#[test]
fn through_a_real_proxy_and_around_it_with_no_proxy() {
    let sb = start("ylem");
    let dir = temp_dir("proxy");
    let proxy = tinyproxy(&dir);
    let p = sb.pipelines[0].0.clone();
    let url = proxy.url();
    let path = format!("/v1/stats/pipelines/{p}/stats/");

    // Plain HTTP through HTTP_PROXY: tinyproxy forwards the token request
    // and the statistics request; -v shows neither the proxy password nor
    // any credential.
    let o = run_at(
        &sb,
        &sb.base,
        &["-v", "stats", "pipeline", &p],
        &[("HTTP_PROXY", &url), ("http_proxy", &url)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let log = proxy.log();
    assert!(log.contains(&path), "tinyproxy did not forward it:\n{log}");
    assert!(log.contains("/v1/oauth/token"), "{log}");
    for secret in [PROXY_PASSWORD, sb.secret.as_str()] {
        assert!(!o.all().contains(secret), "leaked in: {}", o.all());
    }

    // HTTPS through HTTPS_PROXY: a CONNECT tunnel to the TLS front.
    let (ca, cert, key) = make_certs(&dir);
    let tls = tls_front(&cert, &key, port_of(&sb.base));
    let https = format!("https://127.0.0.1:{tls}");
    let before = proxy.log().matches("CONNECT").count();
    let o = run_at(
        &sb,
        &https,
        &["-v", "stats", "pipeline", &p],
        &[
            ("HTTPS_PROXY", &url),
            ("https_proxy", &url),
            ("SSL_CERT_FILE", ca.to_str().unwrap()),
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        proxy.log().matches("CONNECT").count() > before,
        "no CONNECT tunnel:\n{}",
        proxy.log()
    );
    assert!(!o.all().contains(PROXY_PASSWORD));

    // NO_PROXY bypasses it: nothing more reaches tinyproxy.
    let seen = proxy.log().matches(&path).count();
    let o = run_at(
        &sb,
        &sb.base,
        &["stats", "pipeline", &p],
        &[
            ("HTTP_PROXY", &url),
            ("http_proxy", &url),
            ("NO_PROXY", "127.0.0.1"),
            ("no_proxy", "127.0.0.1"),
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(proxy.log().matches(&path).count(), seen, "{}", proxy.log());
}

/// A proxy that cannot be reached, or refuses (tinyproxy with a wrong
/// password: a 401 with a Basic challenge for plain HTTP, a refused
/// CONNECT for HTTPS), is named
/// with the variable it came from, its password masked; the error does
/// not blame the service.
#[test]
fn a_refused_proxy_is_named_not_the_service() {
    let sb = start("ylem");
    let dir = temp_dir("proxy-refused");
    let proxy = tinyproxy(&dir);
    let p = sb.pipelines[0].0.clone();
    let closed = "http://127.0.0.1:1";
    let o = run_at(
        &sb,
        &sb.base,
        &["stats", "pipeline", &p],
        &[("HTTP_PROXY", closed)],
    );
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("through the proxy http://127.0.0.1:1 (from HTTP_PROXY)"),
        "{}",
        o.stderr
    );
    let wrong = format!("http://ylem:wrong-pw-KKKK@127.0.0.1:{}", proxy.port);
    let o = run_at(
        &sb,
        &sb.base,
        &["stats", "pipeline", &p],
        &[("http_proxy", &wrong)],
    );
    assert_ne!(o.code, 0, "{}", o.stderr);
    // tinyproxy answers a wrong password 401 with a Basic challenge.
    assert!(
        o.stderr
            .contains("(from http_proxy) refused the request (HTTP 401)"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("client credentials"), "{}", o.stderr);
    let (ca, cert, key) = make_certs(&dir);
    let tls = tls_front(&cert, &key, port_of(&sb.base));
    let https = format!("https://127.0.0.1:{tls}");
    let o = run_at(
        &sb,
        &https,
        &["stats", "pipeline", &p],
        &[
            ("HTTPS_PROXY", &wrong),
            ("SSL_CERT_FILE", ca.to_str().unwrap()),
        ],
    );
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stderr.contains("(from HTTPS_PROXY)"), "{}", o.stderr);
    assert!(o.stderr.contains("ylem:***@127.0.0.1"), "{}", o.stderr);
    assert!(!o.all().contains("wrong-pw-KKKK"), "{}", o.all());
}

/// A bad SSL_CERT_FILE or SSL_CERT_DIR is named, with the file and what is
/// wrong with it: exit 2, nothing sent.
#[test]
fn a_bad_trust_store_variable_is_named() {
    let sb = start("ylem");
    let dir = temp_dir("bad-trust");
    let junk = dir.join("junk.pem");
    std::fs::write(&junk, "no certificate here").unwrap();
    let https = "https://127.0.0.1:9";
    for (var, value, says) in [
        (
            "SSL_CERT_FILE",
            "/nonexistent/ca.pem",
            "SSL_CERT_FILE=/nonexistent/ca.pem: cannot read it",
        ),
        (
            "SSL_CERT_FILE",
            junk.to_str().unwrap(),
            "holds no PEM certificate",
        ),
        (
            "SSL_CERT_DIR",
            "/nonexistent-dir",
            "SSL_CERT_DIR=/nonexistent-dir",
        ),
    ] {
        let o = run_at(
            &sb,
            https,
            &["stats", "pipeline", &sb.pipelines[0].0],
            &[(var, value)],
        );
        assert_eq!(o.code, 2, "{var}: {}", o.stderr);
        assert!(o.stderr.contains(says), "{var}: {}", o.stderr);
    }
}

/// A wrong `SSL_CERT_FILE` beside a good `SSL_CERT_DIR` (the test CA in
/// it): the client builds from the directory, and the bad file is named
/// in a warning before anything is sent, not left for a certificate error
/// to hide; the exchange goes over TLS.
#[test]
fn a_bad_ssl_cert_file_beside_a_good_dir_is_named_in_a_warning() {
    let sb = start("ylem");
    let dir = temp_dir("bad-file-good-dir");
    let (ca, cert, key) = make_certs(&dir);
    let cadir = dir.join("cadir");
    std::fs::create_dir_all(&cadir).unwrap();
    std::fs::copy(&ca, cadir.join("test-ca.pem")).unwrap();
    let port = tls_front(&cert, &key, port_of(&sb.base));
    let base = format!("https://127.0.0.1:{port}");
    let p = sb.pipelines[0].0.clone();
    let o = run_at(
        &sb,
        &base,
        &["stats", "pipeline", p.as_str(), "-o", "json"],
        &[
            ("SSL_CERT_FILE", "/nonexistent/ca.pem"),
            ("SSL_CERT_DIR", cadir.to_str().unwrap()),
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("warning: SSL_CERT_FILE=/nonexistent/ca.pem: cannot read it"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("ignored"), "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
}
