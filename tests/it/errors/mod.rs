//! Exit codes and hints across commands: each failure's code, hints that
//! fit and are said once, diagnoses, inputs refused before any request,
//! and property tests over rejected inputs.

mod diagnoses;
mod exit_codes;
mod hints;
mod refused_early;
pub mod rejected_inputs;
