//! The board's state and its keys: a pure state machine (keys in; the
//! screen to draw and the asks for the engine out), so every key is tested
//! without a terminal. The engine's answers are taken in `answers.rs`.

use super::super::rows::{Ask, Board, EntityRow};
use super::views::{Confirm, Flow, Key, Loaded, View};

/// The whole state of the board.
#[derive(Debug, Clone, Default)]
pub struct App {
    pub board: Board,
    /// The selected row among the rows the filter keeps.
    pub selected: usize,
    /// Screens opened over the board, the top one shown.
    pub views: Vec<View>,
    /// The name filter (case-insensitive substring of the name or UUID).
    pub filter: String,
    /// The filter is being typed.
    pub typing: bool,
    pub confirm: Option<Confirm>,
    /// One line for the user: a run started, or why not.
    pub notice: Option<String>,
    asks: Vec<Ask>,
}

impl App {
    pub fn new(board: Board) -> Self {
        App {
            board,
            ..App::default()
        }
    }

    /// A new refresh of the board; the selection stays on its row's place.
    pub fn set_board(&mut self, board: Board) {
        self.board = board;
        self.clamp();
    }

    /// The asks made since the last call, for the engine.
    pub fn take_asks(&mut self) -> Vec<Ask> {
        std::mem::take(&mut self.asks)
    }

    /// The rows the filter keeps, in the board's order.
    pub fn visible(&self) -> Vec<&EntityRow> {
        let f = self.filter.to_lowercase();
        self.board
            .rows
            .iter()
            .filter(|r| f.is_empty() || r.name().to_lowercase().contains(&f) || r.id.contains(&f))
            .collect()
    }

    pub fn selected_row(&self) -> Option<&EntityRow> {
        self.visible().get(self.selected).copied()
    }

    pub(super) fn clamp(&mut self) {
        let n = self.visible().len();
        self.selected = self.selected.min(n.saturating_sub(1));
        if let Some(View::Runs { runs, selected, .. }) = self.views.last_mut() {
            let n = match runs {
                Loaded::Done(Ok(r)) => r.len(),
                _ => 0,
            };
            *selected = (*selected).min(n.saturating_sub(1));
        }
    }

    /// One key. Ctrl-C quits from anywhere; `q` wherever it is not text.
    pub fn key(&mut self, key: Key) -> Flow {
        if key == Key::CtrlC {
            return self.quit();
        }
        if let Some(c) = self.confirm.take() {
            self.answer_confirm(c, key);
            return Flow::Continue;
        }
        if self.typing {
            self.type_filter(key);
            return Flow::Continue;
        }
        self.notice = None;
        match key {
            Key::Char('q') => return self.quit(),
            Key::Esc => self.back(),
            Key::Up | Key::Char('k') => self.step(-1),
            Key::Down | Key::Char('j') => self.step(1),
            Key::Enter => self.open(),
            Key::Char('l') => self.follow_log(),
            Key::Char('r') => self.ask_start(),
            Key::Char('?') if self.views.last() != Some(&View::Help) => self.views.push(View::Help),
            Key::Char('/') if self.views.is_empty() => self.typing = true,
            _ => {}
        }
        Flow::Continue
    }

    fn quit(&mut self) -> Flow {
        // A followed log is let go, whatever screen it is under.
        if self.views.iter().any(|v| matches!(v, View::Log { .. })) {
            self.asks.push(Ask::StopLog);
        }
        Flow::Quit
    }

    fn back(&mut self) {
        match self.views.pop() {
            Some(View::Log { .. }) => self.asks.push(Ask::StopLog),
            Some(_) => {}
            // Esc on the board itself clears the filter.
            None => {
                self.filter.clear();
                self.clamp();
            }
        }
    }

    fn step(&mut self, by: isize) {
        let (sel, n) = match self.views.last_mut() {
            None => {
                let n = self.visible().len();
                (&mut self.selected, n)
            }
            Some(View::Runs { runs, selected, .. }) => {
                let n = match runs {
                    Loaded::Done(Ok(r)) => r.len(),
                    _ => 0,
                };
                (selected, n)
            }
            // The waterfall scrolls, as far as its last line.
            Some(View::Run { tasks, scroll, .. }) => {
                let n = match tasks {
                    Loaded::Done(Ok(t)) => {
                        t.len() + t.iter().map(|t| t.messages.len().max(1)).sum::<usize>()
                    }
                    _ => 0,
                };
                (scroll, n)
            }
            Some(_) => return,
        };
        if n > 0 {
            *sel = sel.saturating_add_signed(by).min(n - 1);
        }
    }

    fn open(&mut self) {
        match self.views.last() {
            None => {
                let Some(row) = self.selected_row() else {
                    return;
                };
                let (kind, id, name) = (row.kind, row.id.clone(), row.name().to_string());
                self.asks.push(Ask::Runs {
                    kind,
                    id: id.clone(),
                });
                self.views.push(View::Runs {
                    kind,
                    id,
                    name,
                    runs: Loaded::Waiting,
                    selected: 0,
                });
            }
            Some(View::Runs {
                id,
                name,
                runs: Loaded::Done(Ok(runs)),
                selected,
                ..
            }) => {
                let Some(run) = runs.get(*selected) else {
                    return;
                };
                let (id, name, run_uuid) = (id.clone(), name.clone(), run.run_uuid.clone());
                self.asks.push(Ask::Run {
                    id: id.clone(),
                    run_uuid: run_uuid.clone(),
                });
                self.views.push(View::Run {
                    id,
                    name,
                    run_uuid,
                    tasks: Loaded::Waiting,
                    scroll: 0,
                });
            }
            Some(_) => {}
        }
    }

    /// The run `l` and `r` act on: the run under the cursor, else the
    /// selected entity's run in progress, else its last finished run.
    fn current_run(&self) -> Option<(String, String, String)> {
        match self.views.last() {
            None => {
                let row = self.selected_row()?;
                let uuid = row
                    .running
                    .as_ref()
                    .and_then(|r| r.run_uuid.clone())
                    .or_else(|| row.last.as_ref().and_then(|l| l.run_uuid.clone()))?;
                Some((row.id.clone(), row.name().to_string(), uuid))
            }
            Some(View::Runs {
                id,
                name,
                runs: Loaded::Done(Ok(runs)),
                selected,
                ..
            }) => runs
                .get(*selected)
                .map(|r| (id.clone(), name.clone(), r.run_uuid.clone())),
            Some(View::Run {
                id, name, run_uuid, ..
            }) => Some((id.clone(), name.clone(), run_uuid.clone())),
            Some(_) => None,
        }
    }

    fn follow_log(&mut self) {
        if matches!(self.views.last(), Some(View::Log { .. } | View::Help)) {
            return;
        }
        match self.current_run() {
            Some((id, name, run_uuid)) => {
                self.asks.push(Ask::Log {
                    id,
                    run_uuid: run_uuid.clone(),
                });
                self.views.push(View::Log {
                    name,
                    run_uuid,
                    lines: Vec::new(),
                });
            }
            None => self.notice = Some("no run to follow yet".into()),
        }
    }

    fn ask_start(&mut self) {
        let target = match self.views.last() {
            None => self
                .selected_row()
                .map(|r| (r.kind, r.id.clone(), r.name().to_string())),
            Some(View::Runs { kind, id, name, .. }) => Some((*kind, id.clone(), name.clone())),
            Some(_) => None,
        };
        if let Some((kind, id, name)) = target {
            self.confirm = Some(Confirm { kind, id, name });
        }
    }

    fn answer_confirm(&mut self, c: Confirm, key: Key) {
        if matches!(key, Key::Char('y' | 'Y')) {
            self.notice = Some(format!("starting a run of {} {}…", c.kind, c.name));
            self.asks.push(Ask::Start {
                kind: c.kind,
                id: c.id,
            });
        } else {
            self.notice = Some("no run started".into());
        }
    }

    fn type_filter(&mut self, key: Key) {
        match key {
            Key::Char(c) if !c.is_control() => self.filter.push(c),
            Key::Backspace => {
                self.filter.pop();
            }
            Key::Enter => self.typing = false,
            Key::Esc => {
                self.typing = false;
                self.filter.clear();
            }
            _ => {}
        }
        self.selected = 0;
        self.clamp();
    }
}
