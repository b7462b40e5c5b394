//! An exposition describes a moment no earlier than its scrape (with
//! `--cache 0s`): a scrape that arrives while a slow fetch is under way is
//! not answered by that fetch (which judged an earlier moment) but by one
//! begun after it came — the exporter lagging "in progress" behind every
//! other command under load (issue 42).

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::exporter::{answer_body, scrape_body, send_scrape, serve_p1};
use crate::common::faultserver::*;
use crate::common::process::{try_wait_for, wait_until};

fn scrape(addr: &str) -> String {
    scrape_body(addr, Duration::from_secs(30))
}

/// The service as it is at generation `g`: generation 1 knows 12
/// successes, generation 2 40.
fn answer(path: &str, g: usize) -> Action {
    let ok = if g == 1 { 12 } else { 40 };
    if path.contains("/last-run/") {
        Action::Raw(json(200, LAST_RUN))
    } else if path.contains("/logs/") {
        Action::Raw(json(200, LAST_RUN_LOG))
    } else {
        Action::Raw(json(
            200,
            &STATS.replace(
                "\"num_of_successes\":12",
                &format!("\"num_of_successes\":{ok}"),
            ),
        ))
    }
}

#[test]
fn a_scrape_during_a_slow_fetch_is_answered_by_a_fetch_begun_after_it() {
    let generation = Arc::new(AtomicUsize::new(1));
    // Range statistics (the run count) answered as of generation 1, held.
    let held = Arc::new(AtomicUsize::new(0));
    // Whether the second scrape was sent.
    let sent = Arc::new(AtomicBool::new(false));
    let (g, h, s2) = (generation.clone(), held.clone(), sent.clone());
    let s = with_token(move |r, _| {
        let now = g.load(Ordering::SeqCst);
        let range = !r.path.contains("/last-run/") && !r.path.contains("/logs/");
        if now == 1 && range {
            h.fetch_add(1, Ordering::SeqCst);
            // A loaded server: the answer comes once the second scrape
            // was sent (20 s at most), and half a second later, for the
            // exporter to take that scrape in while this fetch is under
            // way.
            try_wait_for(Duration::from_secs(20), || {
                s2.load(Ordering::SeqCst).then_some(())
            });
            std::thread::sleep(Duration::from_millis(500));
        }
        answer(&r.path, now)
    });
    let dir = tempfile::tempdir().unwrap();
    let (child, addr) = serve_p1(&s.base(), dir.path(), Stdio::null());
    // Scrape 1 starts a fetch that the slow generation holds.
    let a = addr.clone();
    let first = std::thread::spawn(move || scrape(&a));
    // Its range statistics asked, as of generation 1, and held.
    wait_until(
        Duration::from_secs(20),
        "the first scrape's fetch to ask for statistics",
        || held.load(Ordering::SeqCst) > 0,
    );
    // The service moves on; scrape 2 comes while fetch 1 is under way.
    generation.store(2, Ordering::SeqCst);
    let second = send_scrape(&addr);
    sent.store(true, Ordering::SeqCst);
    let second = answer_body(second, Duration::from_secs(30));
    let first = first.join().unwrap();
    // 12 + 3 runs then, 40 + 3 now.
    let runs = |body: &str, n: usize| {
        body.lines()
            .any(|l| l.starts_with("ylem_runs{") && l.ends_with(&format!(" {n}")))
    };
    assert!(runs(&first, 15), "{first}");
    assert!(
        runs(&second, 43),
        "the second scrape was answered by the fetch begun before it came:\n{second}"
    );
    drop(child);
}
