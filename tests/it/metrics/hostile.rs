//! `metrics serve` against a body that never ends: every scrape answered by
//! its deadline with `ylem_up 0`, the exporter's memory flat (what the
//! body adds bounded) and under the 32 MB, measured on the binary
//! every memory test measures (`common::measured`: the release build under
//! `scripts/test.sh`), under the address-space cap, and SIGTERM ending it
//! with exit 0.

use std::process::Stdio;
use std::time::{Duration, Instant};

use super::{scrape, serving_addr};
use crate::common::faultserver::*;
use crate::common::measured;
use crate::common::measured::vm_hwm;
use crate::common::{CLIENT_ID, P1, SECRET};
use crate::hostile::{endless_kinds, peak_bound};

/// What an endless body may add to the exporter's memory: a body read
/// whole stops at 4 MiB (its buffer doubling on the way), and the scrape's
/// own work; it is the same after one scrape as after two.
const GROWTH_KIB: i64 = 12 * 1024;

#[test]
fn the_exporter_answers_every_scrape_in_flat_memory_against_an_endless_body() {
    for (kind, _) in endless_kinds() {
        let s = FaultServer::start(move |_, _| {
            endless_kinds()
                .into_iter()
                .find(|(k, _)| *k == kind)
                .unwrap()
                .1
        });
        let dir = tempfile::tempdir().unwrap();
        // The measured binary, a clean environment, one malloc arena and
        // the address-space cap, as for every other peak.
        let mut c = measured::command(dir.path());
        c.env("YLEM_BASE_URL", s.base())
            .env("YLEM_CLIENT_ID", CLIENT_ID)
            .env("YLEM_CLIENT_SECRET", SECRET)
            .args(["metrics", "serve", "--listen", "127.0.0.1:0"])
            .args([
                "--scrape-timeout",
                "3s",
                "--timeout",
                "3s",
                "--retries",
                "0",
                P1,
            ])
            .stderr(Stdio::null());
        let mut child = c.spawn().unwrap();
        let addr = serving_addr(&mut child);
        let pid = child.id();
        // What the exporter holds serving, before any scrape: the bound is
        // on what an endless body adds to it (the binary's own size, and
        // so its resident pages, grows with every feature of the CLI).
        let idle = vm_hwm(pid).unwrap_or(0);
        let mut peak = 0;
        for n in 0..2 {
            let (status, body, took) = scrape(&addr, &[], 30).expect("an answer");
            peak = peak.max(vm_hwm(pid).unwrap_or(0));
            assert!(status.contains(" 200 "), "{kind}, scrape {n}: {status}");
            assert!(took < Duration::from_secs(3 + 3), "{kind}: {took:?}");
            let up = format!("ylem_up{{kind=\"pipeline\",uuid=\"{P1}\"}} 0");
            assert!(body.contains(&up), "{kind}: {body}");
        }
        // SAFETY: a plain kill(2) of our own child.
        unsafe { libc::kill(pid as i32, libc::SIGTERM) };
        let t = Instant::now();
        let code = loop {
            peak = peak.max(vm_hwm(pid).unwrap_or(0));
            if let Some(st) = child.try_wait().unwrap() {
                break st.code();
            }
            if t.elapsed() > Duration::from_secs(15) {
                let _ = child.kill();
                panic!("{kind}: still running 15 s after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let which = if measured::is_release() {
            "release"
        } else {
            "debug"
        };
        eprintln!(
            "metrics serve against an endless body ({kind}, {which} binary): idle {idle} KiB, peak {peak} KiB"
        );
        assert_eq!(code, Some(0), "{kind}");
        assert!(
            peak - idle < GROWTH_KIB,
            "{kind}: idle {idle} KiB, peak {peak} KiB"
        );
        // The bound on every command, the exporter's whole peak
        // (plus the debug allowance on a plain `cargo test`).
        assert!(
            peak < peak_bound(),
            "{kind}: peak {peak} KiB over {} KiB ({which} binary)",
            peak_bound()
        );
    }
}
