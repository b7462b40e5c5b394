//! The docs against what ships: the guide's examples run, every link
//! resolves, the man pages and guide say what the binary does, and
//! TESTING.md is generated from the scenario records.

mod examples;
mod links;
mod shipped;
mod testing_report;
