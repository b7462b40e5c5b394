//! The keys as a state machine: keys and answers in, the screen and the
//! asks for the engine out, with no terminal.

use std::time::Instant;

use super::super::super::rows::*;
use super::super::app::App;
use super::super::views::{Flow, Key, LOG_KEEP, Loaded, View};
use super::fixtures::*;

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
    for i in 0..(LOG_KEEP * 3) {
        app.answer(Answer::LogLine(format!("line {i}")));
    }
    match app.views.last() {
        Some(View::Log { lines, .. }) => {
            assert!(lines.len() <= LOG_KEEP);
            assert_eq!(lines.last().unwrap(), &format!("line {}", LOG_KEEP * 3 - 1));
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
