//! Runs: starting one (with its input, or the input of an earlier run), waiting for it, listing a
//! pipeline's runs, one run whole, and attaching to a run started elsewhere.

pub mod args;
pub mod attach;
pub mod input;
pub mod junit;
pub mod list;
pub mod one;
pub mod refused;
pub mod rerun;
pub mod start;
pub mod wait;
