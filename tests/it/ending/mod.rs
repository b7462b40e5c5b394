//! How a command ends: SIGINT and closed pipes, SIGTERM, and followers that
//! end with their reader.

mod followers;
mod interrupts;
pub mod sigterm;
