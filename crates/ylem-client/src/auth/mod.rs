//! Where bearer tokens come from: a fixed token, client credentials held
//! in memory, or a `TokenProvider` the program using the client brings (a
//! stored login, say). The renewable ones keep their token in one
//! `token::Memo`, so concurrent requests share one fetch; `oauth` is the
//! token endpoint they fetch from. This file only declares the parts and
//! re-exports the sources (`source.rs`).

pub mod binding;
pub mod oauth;
mod source;
pub mod token;
pub mod token_params;

pub use source::{ClientCredentials, TokenFuture, TokenProvider, TokenSource};
