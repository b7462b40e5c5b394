//! A pipeline's log: fetched once, followed, and its entries as rows.

pub mod args;
pub mod fetch;
pub mod follow;
mod held;
pub mod rows;
