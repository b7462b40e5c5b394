//! What the board's state is made of: the keys it reads, the screens it
//! opens over the board, and an answer awaited from the engine.

use super::super::rows::{RunLine, TaskBar};

/// Lines of a followed log kept in memory: enough for any screen, and a
/// bound however long the log is followed.
pub const LOG_KEEP: usize = 2000;

/// A key, as the board reads it (the terminal's events are translated in
/// `live.rs`, so the key tests need no terminal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    Enter,
    Esc,
    Backspace,
    CtrlC,
    Char(char),
}

/// What the caller does after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Something asked of the engine and not answered yet, or its answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded<T> {
    Waiting,
    Done(Result<T, String>),
}

/// A screen over the board; Esc goes back to the one below.
#[derive(Debug, Clone, PartialEq)]
pub enum View {
    /// An entity's recent runs (newest first).
    Runs {
        kind: &'static str,
        id: String,
        name: String,
        runs: Loaded<Vec<RunLine>>,
        selected: usize,
    },
    /// One run whole: the waterfall, scrolled by `scroll` lines (a run of
    /// many tasks is taller than the screen).
    Run {
        id: String,
        name: String,
        run_uuid: String,
        tasks: Loaded<Vec<TaskBar>>,
        scroll: usize,
    },
    /// A run's log, followed until Esc.
    Log {
        name: String,
        run_uuid: String,
        lines: Vec<String>,
    },
    Help,
}

/// A run start waiting for the user's y/N.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    pub kind: &'static str,
    pub id: String,
    pub name: String,
}
