//! `watch` (issue 35), as far as the board's branch needs it: the board and
//! the rows it draws. W1's engine owns this file; the merge takes its version.

pub mod board;
pub mod rows;
