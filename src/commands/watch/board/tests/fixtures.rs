//! Fixed rows, runs and task bars for the board's tests, a fixed "now", and
//! a screen drawn on ratatui's `TestBackend`.

use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::super::super::rows::*;
use super::super::app::App;
use super::super::draw;
use super::super::views::Key;

pub const P1: &str = "0b9c1c52-8f3e-4d7a-9a51-6a1f1e2b3c4d";
pub const P2: &str = "7d4f0a8e-2c1b-4e5f-8a9b-0c1d2e3f4a5b";
pub const W1: &str = "c3e2d1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f";
pub const T1: &str = "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b";
pub const R1: &str = "5f0e9d8c-7b6a-4948-8372-6150a4b3c2d1";
pub const R2: &str = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 12, 0, 0).unwrap()
}

pub fn ago(s: i64) -> DateTime<Utc> {
    now() - chrono::Duration::seconds(s)
}

pub fn hours(v: &[(usize, u32)]) -> Vec<u32> {
    let mut h = vec![0; 24];
    for &(i, n) in v {
        h[i] = n;
    }
    h
}

/// Four entities: a failed pipeline that just changed, a running one, a
/// workflow not read at the last refresh, and a task never run.
pub fn board(tick: Instant) -> Board {
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
        counts: None,
        failure: Some(FailureLine {
            run_uuid: Some(R1.into()),
            task: "load-warehouse".into(),
            task_uuid: "6f1e0c52-9a57-4d2b-8a43-5c7d0e9b1f20".into(),
            message: "Code 42: relation \"sales\" does not exist".into(),
        }),
        changed_at: Some(tick - Duration::from_secs(2)),
        error: None,
        unread: false,
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
        counts: None,
        failure: None,
        changed_at: Some(tick - Duration::from_secs(30)),
        error: None,
        unread: false,
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
        counts: None,
        failure: None,
        changed_at: None,
        error: Some(("network".into(), "connection refused".into())),
        unread: true,
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
        unread: false,
        ..never
    };
    Board {
        rows: vec![failed, running, unread, never],
        refreshed: Some(ago(3)),
    }
}

pub fn runs() -> Vec<RunLine> {
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
                task_uuid: "6f1e0c52-9a57-4d2b-8a43-5c7d0e9b1f20".into(),
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

pub fn tasks() -> Vec<TaskBar> {
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
pub fn shot(app: &App, width: u16, tick: Instant) -> String {
    terminal(app, width, tick).backend().to_string()
}

pub fn terminal(app: &App, width: u16, tick: Instant) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(width, 16)).unwrap();
    t.draw(|f| draw::screen(f, app, now(), tick)).unwrap();
    t
}

pub fn app_with(tick: Instant) -> App {
    App::new(board(tick))
}

pub fn on_runs(tick: Instant) -> App {
    let mut app = app_with(tick);
    app.key(Key::Enter);
    app.answer(Answer::Runs {
        id: P1.into(),
        runs: Ok(runs()),
    });
    app
}

pub fn on_run(tick: Instant) -> App {
    let mut app = on_runs(tick);
    app.key(Key::Enter);
    app.answer(Answer::Run {
        run_uuid: R1.into(),
        tasks: Ok(tasks()),
    });
    app
}
