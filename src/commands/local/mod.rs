//! The commands that work on this machine alone: aliases, shell
//! completions, the sandbox and the demo.

pub mod alias;
pub mod args;
pub mod completions;
#[cfg(feature = "sandbox")]
pub mod demo;
pub mod sandbox;
