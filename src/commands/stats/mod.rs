//! Statistics: over a time range, per period, and of the last run.

pub mod aggregate;
pub mod args;
pub mod last_run;
pub mod range;
