//! Each screen drawn from fixed rows and a fixed "now": text snapshots
//! (`snapshots/`, accepted with `INSTA_UPDATE=always`) at 120 and 60
//! columns, and the colours, which the snapshots do not hold.

use std::time::Instant;

use ratatui::style::Color;

use super::fixtures::*;

#[test]
fn board_120() {
    let tick = Instant::now();
    insta::assert_snapshot!(shot(&app_with(tick), 120, tick));
}

#[test]
fn board_60() {
    let tick = Instant::now();
    insta::assert_snapshot!(shot(&app_with(tick), 60, tick));
}

#[test]
fn board_50_keeps_name_health_failure() {
    let tick = Instant::now();
    let s = shot(&app_with(tick), 50, tick);
    assert!(!s.contains("LAST RUN") && !s.contains("KIND"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn runs_120() {
    let tick = Instant::now();
    insta::assert_snapshot!(shot(&on_runs(tick), 120, tick));
}

#[test]
fn runs_60() {
    let tick = Instant::now();
    insta::assert_snapshot!(shot(&on_runs(tick), 60, tick));
}

#[test]
fn waterfall_120() {
    let tick = Instant::now();
    insta::assert_snapshot!(shot(&on_run(tick), 120, tick));
}

#[test]
fn waterfall_60() {
    let tick = Instant::now();
    insta::assert_snapshot!(shot(&on_run(tick), 60, tick));
}

/// Colours are not in the text snapshots: the health words, the failed
/// bar and the change highlight are checked on the buffer.
#[test]
fn health_and_failed_bars_are_coloured() {
    let tick = Instant::now();
    let t = terminal(&app_with(tick), 120, tick);
    let buf = t.backend().buffer();
    let fg_of = |word: &str| {
        (0..buf.area.height).find_map(|y| {
            let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
            line.find(word).map(|at| {
                let x = line[..at].chars().count() as u16;
                buf[(x, y)].fg
            })
        })
    };
    assert_eq!(fg_of("failed "), Some(Color::Red));
    assert_eq!(fg_of("never"), Some(Color::DarkGray));
    // The row changed 2 s ago is highlighted; the one changed 30 s ago not.
    let row_bg = |name: &str| {
        (0..buf.area.height).find_map(|y| {
            let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
            line.contains(name).then(|| buf[(5, y)].bg)
        })
    };
    assert_ne!(row_bg("nightly-etl"), row_bg("hourly-sync"));
    let w = terminal(&on_run(tick), 120, tick);
    let wb = w.backend().buffer();
    let red_bars = (0..wb.area.height)
        .flat_map(|y| (0..wb.area.width).map(move |x| (x, y)))
        .filter(|&(x, y)| wb[(x, y)].symbol() == "█" && wb[(x, y)].fg == Color::Red)
        .count();
    assert!(red_bars > 0);
}
