//! The run model's cross-command matrices against the sandbox's truth:
//! one verdict per run, its basis, workflows and tasks, their moments and
//! what each command said, and failures.

mod basis;
mod entities;
mod failures;
mod moments;
mod one_verdict;
mod run_model;
pub mod said;
