//! The CLI's stored credentials: profiles in config.toml and their
//! credential stores (keyring, file), the stored profile that hands the
//! client its tokens (`stored`, a `ylem_client::TokenProvider`), and the
//! refusals that name our flags and variables (`binding`). The token
//! endpoint, the memo and the binding of a token to its service are
//! `ylem_client::auth`'s.

pub(crate) mod binding;
pub(crate) mod profile;
pub(crate) mod secrets;
pub(crate) mod store;
pub(crate) mod stored;
pub(crate) mod token_params;
