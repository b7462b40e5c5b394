//! The exporter under a flood (issue 43): 300 idle and 260 trickling
//! (a byte every 2 s) loopback connections, from one client address and
//! spread over twenty, while a scrape from another address is answered
//! within the exporter's promised deadline, the default `--scrape-timeout`
//! of 8 s. One address is held to its per-peer cap (16, the rest closed at
//! once); twenty fill the global cap (256), whose slots come free at the
//! head timeout (3 s).

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::server::good_upstream;
use super::{connect_from, exporter, scrape};
use crate::common::P1;

/// What the exporter promises a scrape: its default `--scrape-timeout`.
const DEADLINE: Duration = Duration::from_secs(8);
const HEAD: &[u8] = b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

/// `n` connections spread over `addresses` loopback sources from
/// 127.0.0.2 on, each having sent `first` (nothing when empty).
fn open(addr: &str, n: usize, addresses: u8, first: &[u8]) -> Vec<TcpStream> {
    (0..n)
        .map(|i| {
            let mut s = connect_from([127, 0, 0, 2 + (i % addresses as usize) as u8], addr);
            if !first.is_empty() {
                let _ = s.write_all(first);
            }
            s
        })
        .collect()
}

/// One more byte of the request head on every connection each 2 s, for at
/// most 30 s or until `stop`; a connection the exporter closed fails its
/// writes, which is ignored.
fn trickle(mut socks: Vec<TcpStream>, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let t = Instant::now();
        let mut at = 1;
        while !stop.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(100));
            if t.elapsed() < Duration::from_secs(2 * at as u64) {
                continue;
            }
            for s in &mut socks {
                let _ = s.write_all(&HEAD[at % HEAD.len()..][..1]);
            }
            at += 1;
        }
    })
}

/// A scrape from 127.0.0.1 during the flood: answered 200, within the
/// deadline. Returns how long it took, for the report.
fn scrape_in_time(addr: &str, what: &str) -> Duration {
    let (status, body, took) = scrape(addr, &[], 30).unwrap_or_else(|| panic!("{what}: no answer"));
    eprintln!("{what}: scrape answered in {took:?}");
    assert!(status.contains(" 200 "), "{what}: {status}");
    assert!(body.contains("ylem_up{"), "{what}: {body}");
    assert!(took < DEADLINE, "{what}: the scrape took {took:?}");
    took
}

fn flooded(n: usize, addresses: u8, trickling: bool, what: &str) {
    let up = good_upstream();
    let dir = tempfile::tempdir().unwrap();
    let e = exporter(&up.base(), dir.path(), &[P1], &dir.path().join("err"));
    let first = if trickling { &HEAD[..1] } else { &[][..] };
    let socks = open(&e.addr, n, addresses, first);
    let stop = Arc::new(AtomicBool::new(false));
    // Idle ones are kept open here, trickling ones by their thread.
    let (idle, t) = match trickling {
        true => (Vec::new(), Some(trickle(socks, stop.clone()))),
        false => (socks, None),
    };
    scrape_in_time(&e.addr, what);
    stop.store(true, Ordering::SeqCst);
    if let Some(t) = t {
        t.join().unwrap();
    }
    drop(idle);
}

#[test]
fn three_hundred_idle_sockets_from_one_address_do_not_hold_a_scrape() {
    flooded(300, 1, false, "300 idle from one address");
}

#[test]
fn three_hundred_idle_sockets_from_twenty_addresses_do_not_hold_a_scrape() {
    flooded(300, 20, false, "300 idle from 20 addresses");
}

#[test]
fn two_hundred_sixty_trickling_sockets_from_one_address_do_not_hold_a_scrape() {
    flooded(260, 1, true, "260 trickling from one address");
}

#[test]
fn two_hundred_sixty_trickling_sockets_from_twenty_addresses_do_not_hold_a_scrape() {
    flooded(260, 20, true, "260 trickling from 20 addresses");
}
