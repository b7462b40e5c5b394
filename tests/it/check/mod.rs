//! `check`: its status line and JSON in each state, and the cron lines it
//! ships with.

mod cron;
mod cron_lines;
mod output;
