//! Watching entities from monitoring: `check`, the `status` board, what
//! one entity's board says, and the Prometheus exporter (`serve`).

pub mod args;
pub mod board;
pub mod check;
pub mod check_output;
pub mod serve;
pub mod status;
