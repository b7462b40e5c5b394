//! The refusals when a command names another service than the one a
//! profile's credentials were saved for (or none): what the user typed,
//! and how to reach either service. The binding itself is
//! `ylem_client::auth::binding`'s.

use crate::error::Error;

/// Where the base URL in effect came from, for the refusal's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    Flag,
    Env,
}

impl Given {
    pub fn name(self) -> &'static str {
        match self {
            Given::Flag => "--base-url",
            Given::Env => "YLEM_BASE_URL",
        }
    }
}

/// A command named another service than the one profile `name` is logged
/// in to (`saved`): nothing is sent, and the error says how to reach either.
/// `other` is a profile already logged in to `given`, if there is one.
pub fn refusal(name: &str, saved: &str, given: &str, from: Given, other: Option<&str>) -> Error {
    let reach_given = match other {
        Some(o) => format!("to use {given}, add -p {o} (logged in to it)"),
        None => format!(
            "to use {given}, pick a profile logged in to it (-p PROFILE) or log one in: 'ylemctl -p PROFILE login --base-url {given}'"
        ),
    };
    let reach_saved = match from {
        Given::Env => format!("to use {saved}, unset YLEM_BASE_URL"),
        Given::Flag => format!("to use {saved}, leave out --base-url"),
    };
    Error::auth(format!(
        "profile '{name}' is logged in to {saved}, not {given} (from {}): its credentials are sent only to the service they were saved for; nothing was sent",
        from.name()
    ))
    .with_hint(format!("{reach_given}; {reach_saved}"))
}

/// `login` of a profile logged in to `saved`, with `YLEM_BASE_URL` naming
/// another service: the secret typed next is most likely `saved`'s, so it
/// is not sent to `given` unless `--base-url` says so.
pub fn login_elsewhere(name: &str, saved: &str, given: &str) -> Error {
    let p = if name == "default" {
        String::new()
    } else {
        format!("-p {name} ")
    };
    Error::auth(format!(
        "profile '{name}' is logged in to {saved}, but YLEM_BASE_URL names {given}: nothing was asked or sent"
    ))
    .with_hint(format!(
        "to log in to {saved} again, unset YLEM_BASE_URL; to move the profile to {given}, say so: 'ylemctl {p}login --base-url {given}' (or use another profile: -p PROFILE)"
    ))
}

/// A profile with a client id but no base URL (a config file written by
/// hand): its credentials belong to no known service, so they go nowhere.
pub fn unbound(name: &str) -> Error {
    let p = if name == "default" {
        String::new()
    } else {
        format!("-p {name} ")
    };
    Error::auth(format!(
        "profile '{name}' has no base URL saved with its credentials, so they are not sent anywhere"
    ))
    .with_hint(format!("run 'ylemctl {p}login --base-url URL' to save one"))
}
