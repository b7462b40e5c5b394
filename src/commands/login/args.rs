//! `login`, `logout` and `auth`: their clap definitions, read by
//! `log_in.rs` and `auth.rs`.

use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::cli::{NO_ROWS, StoreChoice, bound, exits, ignoring};
use crate::value_parsers;

/// Log in with an OAuth client: check it by fetching a token, then save it in the profile
#[derive(Debug, Parser)]
#[command(
    name = "login",
    after_help = concat!(
        "Examples:\n  ylemctl login --base-url https://api.datamin.io --client-id 0b0e8b5c-...   # asks for the secret\n  pass show ylem/secret | ylemctl login --client-id 0b0e8b5c-... --client-secret-stdin\n  ylemctl -p staging login --base-url https://staging.example.com --store file",
        bound!(),
        " Logging a profile in to another service takes an explicit --base-url (YLEM_BASE_URL alone is refused).",
        exits!()
    ),
    args = ignoring(NO_ROWS)
)]
pub struct LoginArgs {
    /// OAuth client id (asked for on a terminal when missing)
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// Read the client secret from standard input instead of asking
    #[arg(long)]
    pub client_secret_stdin: bool,
    /// Where to keep the secret and tokens (default auto; also YLEM_CREDENTIAL_STORE)
    #[arg(long, value_enum, value_name = "STORE")]
    pub store: Option<StoreChoice>,
}

/// Remove the profile's stored secret and token (its base URL and client id stay)
#[derive(Debug, Parser)]
#[command(
    name = "logout",
    after_help = "Examples:\n  ylemctl logout\n  ylemctl -p staging logout",
    args = ignoring(NO_ROWS)
)]
pub struct LogoutArgs {}

/// Show the login state, or print a token for other tools
#[derive(Debug, Parser)]
#[command(name = "auth")]
pub struct AuthArgs {
    #[command(subcommand)]
    pub command: AuthCommand,
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Profile, base URL, client id, the URL its credentials are bound to, store and token expiry (never the token)
    #[command(
        after_help = concat!(
            "Examples:\n  ylemctl auth status\n  ylemctl -p staging auth status -o json",
            "\n\nbound_to is the base URL the stored credentials belong to.",
            bound!(),
            " A store that cannot be read (the OS keyring with no session bus, locked, or not answering) is shown as its state (keyring unreachable: why), the secret and token unknown; the rest is shown all the same, and the exit status is 3 unless credentials from the environment are in use.",
            exits!()
        )
    )]
    Status,
    /// Print a valid access token on standard output, for other tools
    #[command(
        after_help = concat!(
            "Examples:\n  curl -H \"Authorization: Bearer $(ylemctl auth token)\" https://api.datamin.io/v1/...\n  ylemctl auth token --min-ttl 10m     # valid for at least 10 more minutes",
            bound!(),
            exits!()
        )
    )]
    Token(TokenArgs),
}

#[derive(Debug, Args)]
pub struct TokenArgs {
    /// Fetch a new token unless the cached one stays valid this long, e.g. 10m
    #[arg(long, value_name = "DURATION", value_parser = value_parsers::duration)]
    pub min_ttl: Option<Duration>,
}
