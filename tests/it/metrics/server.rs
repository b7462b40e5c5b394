//! The exporter's server against hostile clients: a request head that never
//! ends is closed after the header timeout (3 s) on plain and TLS
//! listeners; connections beyond the cap (256, from twenty addresses) wait,
//! unaccepted, until one ends; one address's beyond its cap (16) are closed; basic auth runs bcrypt once for a good password over 50 scrapes,
//! and 100 wrong passwords in flight do not hold a good client.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{connect_from, exporter, scrape, scrape_from};
use crate::common::P1;
use crate::common::certs::make_certs;
use crate::common::faultserver::*;
use crate::common::process::exit_within;

/// The header timeout, and a generous margin over it.
const CLOSED_WITHIN: Duration = Duration::from_secs(3 + 15);

pub(super) fn good_upstream() -> FaultServer {
    with_token(|r, _| {
        if r.path.contains("/last-run/") {
            let last =
                r#"{"is_successful":true,"executed_at":"2024-01-13 18:36:58","duration":1200}"#;
            Action::Raw(json(200, last))
        } else {
            Action::Raw(json(200, STATS))
        }
    })
}

/// Whether the server closed a connection that sent a partial request line.
fn closes_a_slow_header(addr: &str) -> Result<Duration, String> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(b"GET /metr").unwrap();
    s.set_read_timeout(Some(CLOSED_WITHIN)).unwrap();
    let t = Instant::now();
    match s.read(&mut [0; 64]) {
        Ok(0) => Ok(t.elapsed()),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => Ok(t.elapsed()),
        Ok(n) => Err(format!("{n} bytes answered to half a request line")),
        Err(e) => Err(format!("still open after {:?}: {e}", t.elapsed())),
    }
}

#[test]
fn slow_header_connections_are_closed_on_plain_and_tls_listeners() {
    let up = good_upstream();
    let dir = tempfile::tempdir().unwrap();
    let plain = exporter(&up.base(), dir.path(), &[P1], &dir.path().join("plain.err"));
    make_certs(dir.path());
    let web = dir.path().join("web.yml");
    std::fs::write(
        &web,
        "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n",
    )
    .unwrap();
    let w = web.to_str().unwrap();
    let tls = exporter(
        &up.base(),
        dir.path(),
        &["--web-config-file", w, P1],
        &dir.path().join("tls.err"),
    );
    let a = plain.addr.clone();
    let plain_side = std::thread::spawn(move || closes_a_slow_header(&a));
    // TLS: the handshake done, then half a request line, stdin kept open.
    let mut client = Command::new("openssl")
        .args(["s_client", "-quiet", "-connect", &tls.addr])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("openssl is installed");
    let mut stdin = client.stdin.take().unwrap();
    stdin.write_all(b"GET /metr").unwrap();
    stdin.flush().unwrap();
    if exit_within(&mut client, CLOSED_WITHIN).is_none() {
        let _ = client.kill();
        panic!("a slow-header TLS connection still open after {CLOSED_WITHIN:?}");
    }
    drop(stdin);
    plain_side.join().unwrap().unwrap();
}

#[test]
fn connections_beyond_the_cap_wait_until_one_ends() {
    let up = good_upstream();
    let dir = tempfile::tempdir().unwrap();
    let e = exporter(&up.base(), dir.path(), &[P1], &dir.path().join("err"));
    // 256 connections that send nothing, 16 from each of 16 addresses: the
    // cap, and each address at its own.
    let idle: Vec<TcpStream> = (0..256)
        .map(|i| connect_from([127, 0, 0, 2 + (i % 16) as u8], &e.addr))
        .collect();
    let mut s = TcpStream::connect(&e.addr).unwrap();
    write!(
        s,
        "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    let mut first = [0u8; 1];
    let held = s.read(&mut first);
    assert!(
        held.is_err(),
        "the 257th connection was served at once: {held:?}"
    );
    // The idle ones are dropped at the header timeout; then it is served.
    s.set_read_timeout(Some(CLOSED_WITHIN)).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    drop(idle);
}

#[test]
fn one_address_beyond_its_cap_is_closed_at_once_while_another_is_served() {
    let up = good_upstream();
    let dir = tempfile::tempdir().unwrap();
    let e = exporter(&up.base(), dir.path(), &[P1], &dir.path().join("err"));
    let held: Vec<TcpStream> = (0..16)
        .map(|_| connect_from([127, 0, 0, 2], &e.addr))
        .collect();
    // The 17th from that address: closed without an answer, well before
    // the header timeout would have closed it.
    let mut s = connect_from([127, 0, 0, 2], &e.addr);
    s.set_read_timeout(Some(CLOSED_WITHIN)).unwrap();
    let _ = s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    let t = Instant::now();
    let mut text = Vec::new();
    let r = s.read_to_end(&mut text);
    assert!(text.is_empty(), "{}", String::from_utf8_lossy(&text));
    assert!(r.is_ok() || r.unwrap_err().kind() == std::io::ErrorKind::ConnectionReset);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    let (status, _, _) = scrape(&e.addr, &[], 30).expect("another address is served");
    assert!(status.contains(" 200 "), "{status}");
    drop(held);
}

#[test]
fn basic_auth_checks_bcrypt_once_and_wrong_passwords_do_not_hold_a_good_client() {
    let up = good_upstream();
    let dir = tempfile::tempdir().unwrap();
    let password = "pw-Kd83jQz1";
    // Cost 10, as htpasswd -B makes them: a check takes tens of ms.
    let hash = bcrypt::hash(password, 10).unwrap();
    let web = dir.path().join("web.yml");
    std::fs::write(&web, format!("basic_auth_users:\n  prom: {hash}\n")).unwrap();
    let err = dir.path().join("err");
    let w = web.to_str().unwrap();
    let e = exporter(
        &up.base(),
        dir.path(),
        &["-v", "--web-config-file", w, P1],
        &err,
    );
    let auth = |pw: &str| {
        use base64::Engine;
        let b = base64::engine::general_purpose::STANDARD.encode(format!("prom:{pw}"));
        vec![format!("Authorization: Basic {b}")]
    };
    for _ in 0..50 {
        let (status, _, _) = scrape(&e.addr, &auth(password), 30).expect("an answer");
        assert!(status.contains(" 200 "), "{status}");
    }
    let done = Arc::new(AtomicUsize::new(0));
    let bad: Vec<_> = (0..100)
        .map(|i| {
            let (addr, done, h) = (e.addr.clone(), done.clone(), auth(&format!("wrong-{i}")));
            std::thread::spawn(move || {
                // Ten per address: within the per-peer cap (16).
                let r = scrape_from(Some([127, 0, 0, 2 + (i % 10) as u8]), &addr, &h, 120);
                done.fetch_add(1, Ordering::SeqCst);
                r.map(|(status, _, _)| status)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let (status, _, took) = scrape(&e.addr, &auth(password), 20).expect("the good client");
    let bad_done = done.load(Ordering::SeqCst);
    assert!(status.contains(" 200 "), "{status}");
    assert!(
        bad_done < 100,
        "the wrong passwords were no longer in flight"
    );
    eprintln!(
        "good scrape in {took:?} with {} wrong ones in flight",
        100 - bad_done
    );
    for b in bad {
        let status = b.join().unwrap().expect("a wrong password answered");
        assert!(status.contains(" 401 "), "{status}");
    }
    drop(e);
    let stderr = std::fs::read_to_string(&err).unwrap();
    let checks = |what: &str| {
        (stderr.lines())
            .filter(|l| l.contains("bcrypt check") && l.contains(what))
            .count()
    };
    assert_eq!(checks("accepted"), 1, "51 good scrapes: {stderr}");
    assert_eq!(checks("refused"), 100, "{stderr}");
    assert!(!stderr.contains(password) && !stderr.contains("wrong-"));
}
