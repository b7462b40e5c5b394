//! The board without a terminal: snapshots of each screen drawn on
//! ratatui's `TestBackend` at 120 and 60 columns from fixed rows and a fixed
//! "now" (`snapshots/`, accepted with `INSTA_UPDATE=always`), and the keys
//! as a state machine (keys in, screen and asks out).

use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

use super::super::rows::*;
use super::app::{App, Flow, Key, Loaded, View};
use super::draw;

const P1: &str = "0b9c1c52-8f3e-4d7a-9a51-6a1f1e2b3c4d";
const P2: &str = "7d4f0a8e-2c1b-4e5f-8a9b-0c1d2e3f4a5b";
const W1: &str = "c3e2d1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f";
const T1: &str = "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b";
const R1: &str = "5f0e9d8c-7b6a-4948-8372-6150a4b3c2d1";
const R2: &str = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 12, 0, 0).unwrap()
}

fn ago(s: i64) -> DateTime<Utc> {
    now() - chrono::Duration::seconds(s)
}

fn hours(v: &[(usize, u32)]) -> Vec<u32> {
    let mut h = vec![0; 24];
    for &(i, n) in v {
        h[i] = n;
    }
    h
}

/// Four entities: a failed pipeline that just changed, a running one, a
/// workflow not read at the last refresh, and a task never run.
fn board(tick: Instant) -> Board {
    let failed = EntityRow {
        kind: "pipeline",
        id: P1.into(),
        alias: Some("nightly-etl".into()),
        health: "failed",
        last: Some(FinishedRun {
            run_uuid: Some(R1.into()),
            result: "failed",
            ended: ago(125),
            duration_ms: 83_400,
            elapsed_ms: Some(95_000),
        }),
        running: None,
        runs_per_hour: hours(&[(0, 2), (6, 4), (12, 4), (18, 4), (22, 1), (23, 3)]),
        failures_per_hour: hours(&[(23, 1)]),
        failure: Some(FailureLine {
            run_uuid: Some(R1.into()),
            task: "load-warehouse".into(),
            message: "Code 42: relation \"sales\" does not exist".into(),
        }),
        changed_at: Some(tick - Duration::from_secs(2)),
        error: None,
    };
    let running = EntityRow {
        kind: "pipeline",
        id: P2.into(),
        alias: Some("hourly-sync".into()),
        health: "ok",
        last: Some(FinishedRun {
            run_uuid: Some(R2.into()),
            result: "succeeded",
            ended: ago(3_500),
            duration_ms: 4_200,
            elapsed_ms: Some(5_100),
        }),
        running: Some(RunningRun {
            run_uuid: Some("9e8d7c6b-5a49-4837-a261-50f4e3d2c1b0".into()),
            tasks: 3,
            expected: Some(5),
            started: Some(ago(42)),
        }),
        runs_per_hour: vec![1; 24],
        failures_per_hour: vec![0; 24],
        failure: None,
        changed_at: Some(tick - Duration::from_secs(30)),
        error: None,
    };
    let unread = EntityRow {
        kind: "workflow",
        id: W1.into(),
        alias: None,
        health: "unknown",
        last: None,
        running: None,
        runs_per_hour: vec![0; 24],
        failures_per_hour: vec![0; 24],
        failure: None,
        changed_at: None,
        error: Some(("network".into(), "connection refused".into())),
    };
    let never = EntityRow {
        kind: "task",
        id: T1.into(),
        alias: Some("vacuum".into()),
        health: "never",
        ..unread.clone()
    };
    let never = EntityRow {
        error: None,
        ..never
    };
    Board {
        rows: vec![failed, running, unread, never],
        refreshed: Some(ago(3)),
    }
}

fn runs() -> Vec<RunLine> {
    vec![
        RunLine {
            run_uuid: R1.into(),
            result: "failed",
            started: Some(ago(220)),
            ended: ago(125),
            duration_ms: 83_400,
            elapsed_ms: Some(95_000),
            tasks: 4,
            failure: Some(FailureLine {
                run_uuid: Some(R1.into()),
                task: "load-warehouse".into(),
                message: "Code 42: relation \"sales\" does not exist".into(),
            }),
        },
        RunLine {
            run_uuid: R2.into(),
            result: "succeeded",
            started: Some(ago(90_000)),
            ended: ago(89_900),
            duration_ms: 91_000,
            elapsed_ms: Some(100_000),
            tasks: 5,
            failure: None,
        },
    ]
}

fn tasks() -> Vec<TaskBar> {
    let bar = |task: &str, ty: &str, from: i64, to: i64, failed: bool, msgs: &[&str]| TaskBar {
        task: task.into(),
        task_type: ty.into(),
        start: ago(220 - from),
        end: ago(220 - to),
        failed,
        messages: msgs.iter().map(|m| m.to_string()).collect(),
    };
    vec![
        bar("trigger", "external_trigger", 0, 1, false, &[]),
        bar("extract-orders", "query", 1, 40, false, &[]),
        bar("extract-customers", "query", 1, 25, false, &[]),
        bar(
            "load-warehouse",
            "query",
            40,
            95,
            true,
            &["Code 42: relation \"sales\" does not exist"],
        ),
    ]
}

/// The screen as text, `width` × 16.
fn shot(app: &App, width: u16, tick: Instant) -> String {
    terminal(app, width, tick).backend().to_string()
}

fn terminal(app: &App, width: u16, tick: Instant) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(width, 16)).unwrap();
    t.draw(|f| draw::screen(f, app, now(), tick)).unwrap();
    t
}

fn app_with(tick: Instant) -> App {
    App::new(board(tick))
}

fn on_runs(tick: Instant) -> App {
    let mut app = app_with(tick);
    app.key(Key::Enter);
    app.answer(Answer::Runs {
        id: P1.into(),
        runs: Ok(runs()),
    });
    app
}

fn on_run(tick: Instant) -> App {
    let mut app = on_runs(tick);
    app.key(Key::Enter);
    app.answer(Answer::Run {
        run_uuid: R1.into(),
        tasks: Ok(tasks()),
    });
    app
}

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

#[test]
fn up_down_and_jk_select_within_bounds() {
    let mut app = app_with(Instant::now());
    app.key(Key::Up);
    assert_eq!(app.selected, 0);
    app.key(Key::Down);
    app.key(Key::Char('j'));
    assert_eq!(app.selected, 2);
    for _ in 0..10 {
        app.key(Key::Char('j'));
    }
    assert_eq!(app.selected, 3);
    app.key(Key::Char('k'));
    assert_eq!(app.selected, 2);
    assert!(app.take_asks().is_empty());
}

#[test]
fn enter_asks_runs_then_the_run_and_esc_goes_back() {
    let mut app = app_with(Instant::now());
    app.key(Key::Enter);
    assert_eq!(
        app.take_asks(),
        vec![Ask::Runs {
            kind: "pipeline",
            id: P1.into()
        }]
    );
    assert!(matches!(
        app.views.last(),
        Some(View::Runs {
            runs: Loaded::Waiting,
            ..
        })
    ));
    // Enter while the runs are not here yet does nothing.
    app.key(Key::Enter);
    assert!(app.take_asks().is_empty());
    // An answer for another entity is not shown here.
    app.answer(Answer::Runs {
        id: P2.into(),
        runs: Ok(vec![]),
    });
    assert!(matches!(
        app.views.last(),
        Some(View::Runs {
            runs: Loaded::Waiting,
            ..
        })
    ));
    app.answer(Answer::Runs {
        id: P1.into(),
        runs: Ok(runs()),
    });
    app.key(Key::Down);
    app.key(Key::Enter);
    assert_eq!(
        app.take_asks(),
        vec![Ask::Run {
            id: P1.into(),
            run_uuid: R2.into()
        }]
    );
    assert_eq!(app.views.len(), 2);
    app.key(Key::Esc);
    app.key(Key::Esc);
    assert!(app.views.is_empty());
    assert!(app.take_asks().is_empty());
}

#[test]
fn l_follows_the_log_and_esc_stops_it() {
    let mut app = app_with(Instant::now());
    // The second row has a run going: that is the one followed.
    app.key(Key::Down);
    app.key(Key::Char('l'));
    let running = "9e8d7c6b-5a49-4837-a261-50f4e3d2c1b0";
    assert_eq!(
        app.take_asks(),
        vec![Ask::Log {
            id: P2.into(),
            run_uuid: running.into()
        }]
    );
    app.answer(Answer::LogLine("12:00:01 trigger succeeded".into()));
    app.answer(Answer::LogLine("12:00:02 extract succeeded".into()));
    match app.views.last() {
        Some(View::Log { lines, .. }) => assert_eq!(lines.len(), 2),
        v => panic!("{v:?}"),
    }
    app.key(Key::Esc);
    assert_eq!(app.take_asks(), vec![Ask::StopLog]);
    assert!(app.views.is_empty());
    // An entity with no run at all: nothing is asked, the user is told.
    app.key(Key::Down);
    app.key(Key::Char('l'));
    assert!(app.take_asks().is_empty());
    assert!(app.notice.is_some());
}

#[test]
fn a_followed_log_keeps_a_bounded_tail() {
    let mut app = app_with(Instant::now());
    app.key(Key::Char('l'));
    for i in 0..(super::app::LOG_KEEP * 3) {
        app.answer(Answer::LogLine(format!("line {i}")));
    }
    match app.views.last() {
        Some(View::Log { lines, .. }) => {
            assert!(lines.len() <= super::app::LOG_KEEP);
            assert_eq!(
                lines.last().unwrap(),
                &format!("line {}", super::app::LOG_KEEP * 3 - 1)
            );
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn r_starts_a_run_only_after_y() {
    let mut app = app_with(Instant::now());
    app.key(Key::Char('r'));
    assert!(app.confirm.is_some());
    assert!(app.take_asks().is_empty());
    // Anything but y is a no, q included: it does not quit here.
    assert_eq!(app.key(Key::Char('q')), Flow::Continue);
    assert!(app.confirm.is_none() && app.take_asks().is_empty());
    app.key(Key::Char('r'));
    app.key(Key::Enter);
    assert!(app.take_asks().is_empty());
    app.key(Key::Char('r'));
    app.key(Key::Char('y'));
    assert_eq!(
        app.take_asks(),
        vec![Ask::Start {
            kind: "pipeline",
            id: P1.into()
        }]
    );
    app.answer(Answer::Started {
        id: P1.into(),
        run: Ok(R2.into()),
    });
    let n = app.notice.clone().unwrap();
    assert!(n.contains("nightly-etl") && n.contains(R2), "{n}");
    app.answer(Answer::Started {
        id: P1.into(),
        run: Err("the plan is paused".into()),
    });
    assert!(
        app.notice
            .clone()
            .unwrap()
            .contains("could not start nightly-etl: the plan is paused")
    );
}

#[test]
fn slash_filters_by_name_and_esc_clears() {
    let mut app = app_with(Instant::now());
    app.key(Key::Char('/'));
    for c in "SYNC".chars() {
        app.key(Key::Char(c));
    }
    // While typing, q and j are text.
    assert_eq!(app.visible().len(), 1);
    app.key(Key::Enter);
    assert!(!app.typing);
    assert_eq!(app.selected_row().unwrap().id, P2);
    // The filter also matches a UUID.
    app.key(Key::Char('/'));
    app.key(Key::Backspace);
    assert_eq!(app.key(Key::Char('q')), Flow::Continue);
    assert_eq!(app.filter, "SYNq");
    assert_eq!(app.visible().len(), 0);
    app.key(Key::Esc);
    assert!(app.filter.is_empty() && !app.typing);
    assert_eq!(app.visible().len(), 4);
    app.key(Key::Char('/'));
    for c in "c3e2".chars() {
        app.key(Key::Char(c));
    }
    app.key(Key::Enter);
    assert_eq!(app.selected_row().unwrap().id, W1);
    app.key(Key::Esc);
    assert_eq!(app.visible().len(), 4);
}

#[test]
fn q_and_ctrl_c_quit_and_let_a_followed_log_go() {
    let mut app = app_with(Instant::now());
    assert_eq!(app.key(Key::Char('q')), Flow::Quit);
    assert!(app.take_asks().is_empty());
    let mut app = app_with(Instant::now());
    app.key(Key::Char('l'));
    app.take_asks();
    app.key(Key::Char('?'));
    assert_eq!(app.key(Key::CtrlC), Flow::Quit);
    assert_eq!(app.take_asks(), vec![Ask::StopLog]);
    // Ctrl-C quits while typing a filter too.
    let mut app = app_with(Instant::now());
    app.key(Key::Char('/'));
    assert_eq!(app.key(Key::CtrlC), Flow::Quit);
}

#[test]
fn a_refresh_keeps_the_selection_in_bounds() {
    let tick = Instant::now();
    let mut app = app_with(tick);
    for _ in 0..3 {
        app.key(Key::Down);
    }
    let mut b = board(tick);
    b.rows.truncate(2);
    app.set_board(b);
    assert_eq!(app.selected, 1);
    app.set_board(Board::default());
    assert_eq!(app.selected, 0);
    assert!(app.selected_row().is_none());
    app.key(Key::Enter);
    app.key(Key::Char('r'));
    assert!(app.take_asks().is_empty() && app.views.is_empty() && app.confirm.is_none());
}

#[test]
fn help_and_empty_board_draw() {
    let tick = Instant::now();
    let mut app = App::new(Board::default());
    assert!(shot(&app, 60, tick).contains("waiting for the first refresh"));
    app.key(Key::Char('?'));
    let s = shot(&app, 120, tick);
    assert!(s.contains("start a run of the selected entity"), "{s}");
}

#[test]
fn j_and_k_scroll_the_waterfall_within_its_lines() {
    let tick = Instant::now();
    let mut app = on_run(tick);
    assert!(shot(&app, 120, tick).contains("  trigger "));
    app.key(Key::Char('j'));
    app.key(Key::Down);
    let s = shot(&app, 120, tick);
    assert!(
        !s.contains("  trigger ") && s.contains("extract-customers"),
        "{s}"
    );
    // Never past its last line (4 tasks, 1 message: 8 lines at most).
    for _ in 0..50 {
        app.key(Key::Char('j'));
    }
    match app.views.last() {
        Some(View::Run { scroll, .. }) => assert!(*scroll <= 8, "{scroll}"),
        v => panic!("{v:?}"),
    }
    assert!(shot(&app, 120, tick).contains("✗ load-warehouse: Code 42"));
    for _ in 0..50 {
        app.key(Key::Char('k'));
    }
    assert!(shot(&app, 120, tick).contains("  trigger "));
    // The runs and the run were asked for; scrolling asks nothing.
    assert_eq!(app.take_asks().len(), 2);
}
