//! Temporary (issue 34): the client crate's kinds under their old path for
//! the command and service files; removed after the merge
//! (`crate::kinds::` -> `ylem_client::`).

pub use ylem_client::{Entity, Period, RunKind};
