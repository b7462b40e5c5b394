//! `ylemctl watch`: the fleet followed live. `command.rs` is the command
//! (which output, the loop, the stop); `engine.rs` one refresh of every
//! entity; `entity.rs` one entity and one look at it; `events.rs` the
//! event stream; `shown.rs` an entity's board row; `asks.rs` the board's
//! questions answered; `rows.rs` what the board draws (shared with it);
//! `board/` the terminal board itself; `clock.rs` the monotonic "now"
//! every part of it uses.

pub mod args;
pub mod asks;
pub mod board;
pub mod clock;
pub mod command;
pub mod engine;
pub mod entity;
pub mod events;
pub mod rows;
pub mod shown;

#[cfg(all(test, feature = "sandbox"))]
mod board_feed_tests;
