//! `watch`'s terminal board: ratatui on crossterm over the engine's rows
//! (`super::rows`), with the keys of issue 35. `app.rs` is the state and its
//! keys (`views.rs` what it is made of, `answers.rs` the engine's answers
//! taken in), `draw*.rs` the screens, `term.rs` the terminal taken and given
//! back, `live.rs` the loop that ties them to the engine's channels.

mod answers;
mod app;
mod draw;
mod draw_board;
mod draw_run;
mod draw_runs;
mod live;
mod look;
mod term;
#[cfg(test)]
mod tests;
mod views;

pub use live::run;
