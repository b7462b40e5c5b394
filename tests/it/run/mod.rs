//! `run pipeline|workflow`: the start (both answer shapes, a 401), its
//! `--input` and `--rerun`, `--wait` with its verdicts, and a quiet run.

mod input;
mod quiet;
mod rerun;
mod start;
mod start_401;
mod verdicts;
mod wait;
