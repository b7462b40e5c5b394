//! `metrics serve --web-config-file` (the exporter-toolkit format, checked
//! by the real `promtool check web-config`): TLS from a CA made with openssl
//! in the test, client certificates required, basic auth with a bcrypt hash;
//! scraped by the real Prometheus; the right user 200, none or a wrong one
//! 401, plain HTTP refused; a bad file exit 2 naming it, before listening;
//! a rotated certificate served without a restart; `--listen` resolves a
//! host name. Loopback only.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::common::certs::{client_cert, make_certs, sh};
use crate::common::process::{Killed, free_port, try_wait_for};
use crate::common::sandbox::{Sandbox, start};

const USER: &str = "prometheus";
const PASSWORD: &str = "pw-Wx7Qe9rT2uYs";

/// A child killed when dropped.
/// The web configuration: TLS with client certificates, one user.
fn web_yml(dir: &Path) -> std::path::PathBuf {
    let hash = bcrypt::hash(PASSWORD, 4).unwrap();
    let text = format!(
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n  client_ca_file: ca.pem\n  client_auth_type: RequireAndVerifyClientCert\nbasic_auth_users:\n  {USER}: {hash}\n"
    );
    let p = dir.join("web.yml");
    std::fs::write(&p, text).unwrap();
    p
}

/// `metrics serve` with the web configuration: its child and address.
fn serve(sb: &Sandbox, dir: &Path, web: &Path) -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .env_clear()
        .env("YLEM_CONFIG_DIR", dir.join("cfg"))
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .args([
            "metrics",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--cache",
            "1s",
        ])
        .arg("--web-config-file")
        .arg(web)
        .arg(&sb.pipelines[0].0)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(dir.join("exporter.err")).unwrap())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("Serving https://")
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    (Killed(child), addr)
}

/// curl on loopback: the HTTP status (000: no HTTP answer) and headers.
fn curl(dir: &Path, url: &str, extra: &[&str]) -> (String, String) {
    let o = Command::new("curl")
        .args([
            "-s",
            "-o",
            "/dev/null",
            "-D",
            "-",
            "-w",
            "%{http_code}",
            "--max-time",
            "10",
        ])
        .args(["--cacert", "ca.pem"])
        .args(extra)
        .arg(url)
        .current_dir(dir)
        .output()
        .expect("curl is installed (.ci/run installs it)");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let code = out
        .get(out.len().saturating_sub(3)..)
        .unwrap_or("")
        .to_string();
    (code, out)
}

#[test]
fn tls_client_certs_and_basic_auth_scraped_by_a_real_prometheus() {
    let sb = start("ylem");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    make_certs(dir);
    client_cert(dir);
    let web = web_yml(dir);
    // The file is what Prometheus's own tooling accepts.
    sh(
        dir,
        "promtool",
        &["check", "web-config", web.to_str().unwrap()],
    );
    let (_exporter, addr) = serve(&sb, dir, &web);
    let url = format!("https://{addr}/metrics");
    let me = ["--cert", "client.pem", "--key", "client.key"];
    let right = format!("{USER}:{PASSWORD}");
    let (code, _) = curl(dir, &url, &[&me[..], &["-u", &right]].concat());
    assert_eq!(code, "200");
    for (who, extra) in [
        ("no user", vec![]),
        ("a wrong password", vec!["-u", "prometheus:wrong"]),
        ("an unknown user", vec!["-u", "someone:pw-Wx7Qe9rT2uYs"]),
    ] {
        let (code, head) = curl(dir, &url, &[&me[..], &extra].concat());
        assert_eq!(code, "401", "{who}: {head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("www-authenticate: basic"),
            "{head}"
        );
    }
    // Plain HTTP and a client without a certificate get no HTTP answer.
    let (code, _) = curl(dir, &format!("http://{addr}/metrics"), &["-u", &right]);
    assert_eq!(code, "000", "plain HTTP was answered");
    let (code, _) = curl(dir, &url, &["-u", &right]);
    assert_eq!(code, "000", "no client certificate, yet answered");

    let port = free_port();
    let prom_dir = dir.join("prom");
    std::fs::create_dir(&prom_dir).unwrap();
    let config = prom_dir.join("prometheus.yml");
    std::fs::write(&config, format!(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: ylem\n    scheme: https\n    tls_config:\n      ca_file: {d}/ca.pem\n      cert_file: {d}/client.pem\n      key_file: {d}/client.key\n    basic_auth:\n      username: {USER}\n      password: {PASSWORD}\n    static_configs:\n      - targets: ['{addr}']\n",
        d = dir.display()
    )).unwrap();
    let _prom = Killed(
        Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                prom_dir.join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus (Debian package prometheus)"),
    );
    let up = wait_for(60, || {
        let v = api(port, "/api/v1/query?query=ylem_up")?;
        let r = v["data"]["result"].as_array()?.first()?.clone();
        (r["value"][1] == "1").then_some(r)
    });
    assert!(
        up.is_some(),
        "Prometheus never scraped ylem_up 1 over TLS with basic auth"
    );
    let err = std::fs::read_to_string(dir.join("exporter.err")).unwrap();
    assert!(!err.contains(PASSWORD), "{err}");
}

#[test]
fn a_rotated_certificate_is_served_without_a_restart() {
    let sb = start("spec");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    make_certs(dir);
    let web = dir.join("web.yml");
    std::fs::write(
        &web,
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n",
    )
    .unwrap();
    let (_exporter, addr) = serve(&sb, dir, &web);
    let serial = || -> Option<String> {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("openssl s_client -connect {addr} </dev/null 2>/dev/null | openssl x509 -noout -serial"))
            .output()
            .ok()?;
        let s = String::from_utf8_lossy(&o.stdout).trim().to_string();
        s.starts_with("serial=").then_some(s)
    };
    let before = serial().expect("a certificate served");
    // A new certificate from the same CA, written over the old files.
    let fresh = dir.join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    make_certs(&fresh);
    for f in ["server.pem", "server.key"] {
        std::fs::copy(fresh.join(f), dir.join(f)).unwrap();
    }
    let after = wait_for(20, || serial().filter(|s| *s != before));
    assert!(after.is_some(), "still serving {before}");
}

#[test]
fn a_bad_web_config_is_exit_2_naming_the_file_before_listening() {
    let sb = start("spec");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    make_certs(dir);
    let hash = bcrypt::hash(PASSWORD, 4).unwrap();
    let cases = [
        (
            "missing cert file",
            "tls_server_config:\n  cert_file: nowhere.pem\n  key_file: server.key\n".to_string(),
            "nowhere.pem",
        ),
        (
            "not a bcrypt hash",
            format!("basic_auth_users:\n  {USER}: {PASSWORD}\n"),
            "not a bcrypt hash",
        ),
        (
            "malformed YAML",
            "tls_server_config: {cert_file: [\n".to_string(),
            "web.yml",
        ),
        (
            "unknown key",
            format!("basic_auth_user:\n  {USER}: {hash}\n"),
            "unknown field",
        ),
    ];
    for (what, text, says) in cases {
        let web = dir.join("web.yml");
        std::fs::write(&web, text).unwrap();
        let o = sb.run(&[
            "metrics",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--web-config-file",
            web.to_str().unwrap(),
            &sb.pipelines[0].0,
        ]);
        assert_eq!(o.code, 2, "{what}: {}", o.stderr);
        assert!(
            o.stderr.contains(web.to_str().unwrap()),
            "{what}: {}",
            o.stderr
        );
        assert!(o.stderr.contains(says), "{what}: {}", o.stderr);
        assert!(!o.stdout.contains("Serving"), "{what}: it listened");
        assert!(!o.stderr.contains(PASSWORD), "{what}: the password shown");
    }
}

/// `f`'s first `Some` within `secs` seconds (the shared bounded poll).
fn wait_for<T>(secs: u64, f: impl FnMut() -> Option<T>) -> Option<T> {
    try_wait_for(Duration::from_secs(secs), f)
}

/// A GET of Prometheus's API on loopback, as JSON.
fn api(port: u16, path: &str) -> Option<Value> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    serde_json::from_str(text.split_once("\r\n\r\n")?.1).ok()
}

/// `ylemctl metrics serve --listen LISTEN IDS`: its first line on stdout
/// (the banner), the process killed after.
pub fn serve_banner(sb: &Sandbox, listen: &str, ids: &[&str]) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .env(
            "YLEM_CONFIG_DIR",
            std::env::temp_dir().join("ylemctl-listen-none"),
        )
        .args(["metrics", "serve", "--listen", listen])
        .args(ids)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = Killed(c.spawn().unwrap());
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line
}

/// `--listen localhost:PORT`: the host name is resolved (to loopback, so no
/// `--allow-remote` is needed) and served, not "invalid socket address
/// syntax"; a name without a port says what to write.
#[test]
fn listen_resolves_a_host_name() {
    let sb = start("spec");
    let port = free_port();
    let line = serve_banner(&sb, &format!("localhost:{port}"), &[&sb.pipelines[0].0]);
    assert!(
        line.starts_with(&format!(
            "Serving http://127.0.0.1:{port}/metrics for 1 entity"
        )),
        "{line}"
    );
    let o = sb.run(&["metrics", "serve", "--listen", "localhost"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("use HOST:PORT, e.g. 127.0.0.1:9339 or localhost:9339"),
        "{}",
        o.stderr
    );
}
