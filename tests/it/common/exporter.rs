//! The exporter (`metrics serve`) in tests: started against a fault server
//! and read with a plain HTTP/1.0 GET of `/metrics` on loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::process::Killed;
use super::{CLIENT_ID, P1, SECRET};

/// `metrics serve --cache 0s --retries 0 P1` against `base` with client
/// credentials, its config directory `dir` and its stderr `stderr`: the
/// child (killed when dropped) and the address it serves on.
pub fn serve_p1(base: &str, dir: &Path, stderr: Stdio) -> (Killed, String) {
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_ylemctl"))
            .env_clear()
            .env("YLEM_CONFIG_DIR", dir)
            .env("YLEM_BASE_URL", base)
            .env("YLEM_CLIENT_ID", CLIENT_ID)
            .env("YLEM_CLIENT_SECRET", SECRET)
            .args(["metrics", "serve", "--listen", "127.0.0.1:0"])
            .args(["--cache", "0s", "--retries", "0", P1])
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("Serving http://")
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    (child, addr)
}

/// Whatever a GET of `/metrics` on `addr` read within `timeout`, head
/// included: empty when nothing listens (an exporter not up yet).
pub fn scrape_raw(addr: &str, timeout: Duration) -> String {
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        return String::new();
    };
    let _ = s.set_read_timeout(Some(timeout));
    let _ = write!(s, "GET /metrics HTTP/1.0\r\nHost: {addr}\r\n\r\n");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text
}

/// The body of a GET of `/metrics` on `addr`, which must answer 200 within
/// `timeout`.
pub fn scrape_body(addr: &str, timeout: Duration) -> String {
    answer_body(send_scrape(addr), timeout)
}

/// A GET of `/metrics` on `addr`, sent: its answer is read with
/// `answer_body` (for a test that acts between the two).
pub fn send_scrape(addr: &str) -> std::net::TcpStream {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET /metrics HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    s
}

/// The body of the answer to a scrape sent on `s`, which must be 200
/// within `timeout`.
pub fn answer_body(mut s: std::net::TcpStream, timeout: Duration) -> String {
    s.set_read_timeout(Some(timeout)).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    assert!(
        text.starts_with("HTTP/1.1 200") || text.starts_with("HTTP/1.0 200"),
        "{text}"
    );
    text.split_once("\r\n\r\n").unwrap().1.to_string()
}
