//! `watch`: the event stream, the board in a real terminal and its
//! entities, evidence anchored per run, and a wall clock that jumps.

mod board_entities;
mod clock;
mod events;
mod tty;
mod verdict_anchor;
