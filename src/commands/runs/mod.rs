//! Runs: starting one (with its input), waiting for it, listing a
//! pipeline's runs, one run whole, and attaching to a run started elsewhere.

pub mod attach;
pub mod input;
pub mod list;
pub mod one;
pub mod refused;
pub mod start;
pub mod wait;
