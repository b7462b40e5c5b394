//! The board without a terminal: `screens.rs` snapshots each screen drawn
//! on ratatui's `TestBackend`, `keys.rs` drives the state machine, both
//! from `fixtures.rs`.

mod fixtures;
mod keys;
mod screens;
