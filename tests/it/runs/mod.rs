//! `runs`: the list and its filters, attaching to a run, and the memory
//! it keeps.

mod attach;
mod list;
mod memory;
