//! The command line itself: help, `--version`, and the committed
//! completions and man pages.

mod generated;
mod help;
mod version;
