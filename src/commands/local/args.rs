//! `sandbox`, `demo`, `alias` and `completions`: their clap definitions,
//! read by `sandbox.rs`, `demo.rs`, `alias.rs` and `completions.rs`.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use crate::cli::{NOT_A_CLIENT, ignoring, ignoring_but};
use crate::value_parsers::{self, Scopes};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Dialect {
    /// As the service specification says
    Spec,
    /// As the open-source Ylem server behaves
    Ylem,
}

/// Serve the whole API on loopback from memory, for trying ylemctl and testing scripts
#[derive(Debug, Parser)]
#[command(name = "sandbox")]
#[cfg_attr(feature = "sandbox", command(after_help = ylem_sandbox::HELP))]
// All a client's options but `-o`, which asks for the banner as one
// JSON line, and `--jq`, which filters it.
#[command(args = ignoring_but(NOT_A_CLIENT, &["output", "jq"]))]
pub struct SandboxArgs {
    /// Loopback address to listen on (port 0 picks a free one)
    #[arg(
        long,
        default_value = "127.0.0.1:7339",
        value_name = "ADDR",
        value_parser = value_parsers::loopback
    )]
    pub listen: SocketAddr,
    /// Seed of the generated pipelines, workflows, tasks and history
    #[arg(long, default_value = "1", value_name = "N")]
    pub seed: u64,
    /// Behave as the specification says, or as the open-source server does
    #[arg(long, value_enum, default_value = "spec")]
    pub dialect: Dialect,
    /// Delay added before every response, e.g. 100ms
    #[arg(long, default_value = "0ms", value_name = "DURATION", value_parser = value_parsers::duration)]
    pub latency: Duration,
    /// Share of requests answered with a fault, from 0 to 1 (spec: 503; ylem: 500 with a JSON body, or 502-504)
    #[arg(long, default_value = "0", value_name = "F", value_parser = value_parsers::rate)]
    pub fail_rate: f64,
    /// Lifetime of issued tokens
    #[arg(
        long,
        default_value = "24h",
        value_name = "DURATION",
        value_parser = value_parsers::seconds_duration
    )]
    pub token_ttl: Duration,
    /// Live time of one second of task time: each task of a started run reports after its duration times this
    #[arg(
        long,
        default_value = "1500ms",
        value_name = "DURATION",
        value_parser = value_parsers::duration
    )]
    pub task_delay: Duration,
    /// Where the token endpoint reads its parameters (query: the spec's form only, as a server that ignores a form body)
    #[arg(long, value_enum, default_value = "both", value_name = "WHERE")]
    pub token_params: TokenParamsChoice,
    /// Put every response's Date header this far off the true time, ahead or behind (-), e.g. 90s, -10m
    #[arg(
        long,
        default_value = "0s",
        value_name = "DURATION",
        allow_hyphen_values = true,
        value_parser = value_parsers::signed_duration
    )]
    pub clock_skew: chrono::TimeDelta,
    /// Scopes tokens grant, enforced with 403: comma-separated, of stats:read, pipelines:run and workflows:run ("" grants none); not given, all are granted
    #[arg(long, value_name = "LIST", value_parser = value_parsers::scopes)]
    pub scopes: Option<Scopes>,
    /// Answer 401 on every authenticated endpoint, even with a fresh token, as a plan with the API switched off
    #[arg(long)]
    pub plan_disabled: bool,
    /// Test-only: every started workflow run fails (on its last task), for a failed workflow run on demand
    #[arg(long)]
    pub failing_workflows: bool,
    /// Benchmark scale: N more ordinary pipelines, after all the others
    /// (which keep their UUIDs), each run about hourly over 14 days
    // Hidden: a knob for `bench/export_day.sh`, not for trying ylemctl;
    // and so the man pages and completions, generated from the visible
    // flags, stay as they are.
    #[arg(long, default_value = "0", value_name = "N", hide = true)]
    pub extra_pipelines: usize,
}

/// Where the sandbox's token endpoint reads its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TokenParamsChoice {
    /// A form-encoded body and the query string
    Both,
    /// A form-encoded body only
    Body,
    /// The query string only
    Query,
}

/// Start a sandbox in-process and walk through every command against it
#[derive(Debug, Parser)]
#[command(
    name = "demo",
    after_help = "Examples:\n  ylemctl demo\n  cargo run --release -- demo",
    args = ignoring(NOT_A_CLIENT)
)]
pub struct DemoArgs {}

/// Names for UUIDs, usable wherever an ID is
#[derive(Debug, Parser)]
#[command(name = "alias")]
pub struct AliasArgs {
    #[command(subcommand)]
    pub command: AliasCommand,
}

#[derive(Debug, Subcommand)]
pub enum AliasCommand {
    /// Name a UUID (replaces an alias of the same name)
    #[command(
        after_help = "Examples:\n  ylemctl alias set orders 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b\n  ylemctl alias set nightly workflow:0b6c2d3e-4f50-4a1b-8c2d-3e4f5a6b7c8d\n  ylemctl -p staging alias set orders 7c9d2e1f-0a1b-4c2d-9e3f-4a5b6c7d8e9f --profile-only"
    )]
    Set {
        /// Letters, digits, '-', '_' and '.'
        name: String,
        /// The UUID it stands for, optionally prefixed with its kind
        /// (`pipeline:`, `workflow:`, `task:`), which `status` and `metrics` use
        uuid: String,
        /// Only for the profile in use ([profiles.NAME.aliases], which wins over the global one)
        #[arg(long)]
        profile_only: bool,
    },
    /// List the aliases
    #[command(
        after_help = "Examples:\n  ylemctl alias list\n  ylemctl alias list -o json | jq -r 'keys[]'"
    )]
    List {
        /// Only the names, one per line (for shell completion)
        #[arg(long, hide = true)]
        names: bool,
    },
    /// Remove an alias
    #[command(
        after_help = "Examples:\n  ylemctl alias remove orders\n  ylemctl -p staging alias remove orders"
    )]
    Remove {
        /// The alias to remove
        name: String,
        /// From the profile in use's own aliases, not the global ones
        #[arg(long)]
        profile_only: bool,
    },
}

/// Print a shell completion script
#[derive(Debug, Parser)]
#[command(
    name = "completions",
    after_help = "Examples:\n  ylemctl completions bash > ~/.local/share/bash-completion/completions/ylemctl\n  ylemctl completions zsh > \"${fpath[1]}/_ylemctl\"",
    args = ignoring(NOT_A_CLIENT)
)]
pub struct CompletionsArgs {
    /// Shell to print the script for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
