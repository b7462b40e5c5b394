//! `login`, `logout`, `auth` and the token cache of a logged-in profile.

mod credentials;
mod token_cache;
