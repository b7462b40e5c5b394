//! A pipeline's log: fetched once, followed, and its entries as rows.

pub mod fetch;
pub mod follow;
pub mod rows;
