//! The engine's answers taken into the board's state, each shown on the
//! screen that asked for it (an answer for a screen since closed is dropped).

use super::super::rows::Answer;
use super::app::App;
use super::views::{LOG_KEEP, Loaded, View};

impl App {
    /// One answer of the engine, shown where it was asked for; an answer
    /// for a screen since closed is dropped.
    pub fn answer(&mut self, answer: Answer) {
        match answer {
            Answer::Runs { id: got, runs: r } => {
                for v in &mut self.views {
                    if let View::Runs { id, runs, .. } = v
                        && *id == got
                    {
                        *runs = Loaded::Done(r.clone());
                    }
                }
                self.clamp();
            }
            Answer::Run {
                run_uuid: got,
                tasks: t,
            } => {
                for v in &mut self.views {
                    if let View::Run {
                        run_uuid, tasks, ..
                    } = v
                        && *run_uuid == got
                    {
                        *tasks = Loaded::Done(t.clone());
                    }
                }
            }
            Answer::Started { id, run } => {
                let name = self
                    .board
                    .rows
                    .iter()
                    .find(|r| r.id == id)
                    .map_or(id.clone(), |r| r.name().to_string());
                self.notice = Some(match run {
                    Ok(uuid) => format!("started {name}: run {uuid}"),
                    Err(e) => format!("could not start {name}: {e}"),
                });
            }
            Answer::LogLine(line) => {
                if let Some(View::Log { lines, .. }) = self
                    .views
                    .iter_mut()
                    .rev()
                    .find(|v| matches!(v, View::Log { .. }))
                {
                    if lines.len() >= LOG_KEEP {
                        lines.drain(..LOG_KEEP / 4);
                    }
                    lines.push(line);
                }
            }
        }
    }
}
