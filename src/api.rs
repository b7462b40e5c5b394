//! Temporary (issue 34): `ylem_client::api` under its old path, with `Api`
//! the old name of `ylem_client::Client`, for the command and service
//! files; removed after the merge (`crate::api::Api` -> `ylem_client::Client`,
//! `crate::api::` -> `ylem_client::api::`).

pub use ylem_client::api::*;

/// The old name of `ylem_client::Client`.
pub type Api = ylem_client::Client;
