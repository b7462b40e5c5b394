//! `check`, `status` and `metrics serve`: their clap definitions, read by
//! `check.rs`, `status.rs` and `serve/exporter.rs`.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::cli::{GlobalArgs, KeyFile, ignoring};
use crate::value_parsers::{self, Levels};
use ylem_client::Entity;

/// A monitoring check (Nagios, Icinga, Zabbix, cron): one status line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN
#[derive(Debug, Parser)]
#[command(
    name = "check",
    after_help = "Examples:\n  ylemctl check pipeline 3f2a1b4c-... --max-age 25h,49h\n  ylemctl check task ID --max-failure-rate 10,25 --window 7d --max-duration 5m,15m",
    // One status line (or its JSON, or the exposition): no columns.
    args = check_globals()
)]
pub struct CheckArgs {
    /// What the ID is: task, pipeline or workflow
    #[arg(value_parser = value_parsers::entity())]
    pub kind: Entity,
    /// UUID (or alias)
    #[arg(value_name = "ID")]
    pub id: String,
    /// Stale when the last run is older: CRIT or WARN,CRIT, e.g. 25h,49h
    #[arg(long, value_name = "D", value_parser = value_parsers::duration_levels)]
    pub max_age: Option<Levels>,
    /// Failed share of runs in --window, in percent: CRIT or WARN,CRIT, e.g. 10,25
    #[arg(long, value_name = "PCT", value_parser = value_parsers::percent_levels)]
    pub max_failure_rate: Option<Levels>,
    /// Window of --max-failure-rate (at least 1s)
    #[arg(long, default_value = "24h", value_name = "D", value_parser = value_parsers::seconds_duration)]
    pub window: Duration,
    /// Longest acceptable last run: CRIT or WARN,CRIT, e.g. 5m,15m
    #[arg(long, value_name = "D", value_parser = value_parsers::duration_levels)]
    pub max_duration: Option<Levels>,
    #[command(flatten)]
    pub key: KeyFile,
}

/// One row per pipeline, workflow or task: last run, runs and failures in 24 h, a 7-day failure sparkline
#[derive(Debug, Parser, Clone)]
#[command(
    name = "status",
    after_help = concat!(
        "Examples:\n  ylemctl status                               # every alias in the profile\n  ylemctl status orders workflow:nightly task:0b6c...-...\n  ylemctl status -o prometheus --output-file /var/lib/prometheus/node-exporter/ylem.prom\n  watch -n 30 ylemctl status                   # a board that refreshes itself",
        "\n\nExit status: 0 ok (also when some IDs could not be read: their rows say unknown and their error's kind, an error that hit several IDs said once naming them), 2 usage; when no ID could be read, the worst error's: 3 auth, 4 not found, 5 server, 6 network; 130 interrupted"
    )
)]
pub struct StatusArgs {
    #[command(flatten)]
    pub targets: Targets,
}

// The IDs `status` and `metrics serve` take (no doc comment: a flattened
// group's would replace its command's about).
#[derive(Debug, Args, Clone)]
pub struct Targets {
    /// UUIDs or aliases, each optionally prefixed `task:`, `pipeline:` or
    /// `workflow:` (default: every alias in the profile; a bare UUID is a pipeline)
    #[arg(value_name = "ID|ALIAS")]
    pub ids: Vec<String>,
}

/// A Prometheus exporter: serve /metrics for IDs and aliases
#[derive(Debug, Parser)]
#[command(name = "metrics")]
pub struct MetricsArgs {
    #[command(subcommand)]
    pub command: MetricsCommand,
}

#[derive(Debug, Subcommand)]
pub enum MetricsCommand {
    /// Serve /metrics (Prometheus text format) and / until Ctrl-C or SIGTERM, fetching on scrape
    #[command(
        after_help = "Examples:\n  ylemctl metrics serve                                  # every alias, on 127.0.0.1:9339\n  ylemctl metrics serve --listen 127.0.0.1:9400 orders workflow:nightly\n  ylemctl metrics serve --listen 0.0.0.0:9339 --allow-remote --web-config-file /etc/ylemctl/exporter/web.yml\n\nWeb configuration (--web-config-file), as Prometheus exporters read it:\n  tls_server_config:\n    cert_file: server.crt             # PEM; paths relative to this file\n    key_file: server.key\n    client_ca_file: clients-ca.crt    # with client_auth_type:\n    client_auth_type: RequireAndVerifyClientCert   # or VerifyClientCertIfGiven, NoClientCert\n    min_version: TLS12                # or TLS13\n  basic_auth_users:\n    prometheus: $2y$10$...            # bcrypt hash: htpasswd -nBC 10 prometheus\nA malformed file, an unknown key, a password that is not a bcrypt hash or a certificate that cannot be read is exit 2, before listening. The file and the certificates it names are read again when they change (at most once a second), so certificates rotate without a restart. Without it, --allow-remote serves plain HTTP to anyone, with a warning.\n\nSignals: Ctrl-C (SIGINT) or SIGTERM stops it accepting scrapes; the scrapes in flight are answered (for at most 10 s), then it exits 0."
    )]
    Serve(ServeArgs),
}

#[derive(Debug, Args, Clone)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT (a host name is resolved, e.g.
    /// localhost:9339); a non-loopback one needs --allow-remote
    #[arg(long, default_value = "127.0.0.1:9339", value_name = "ADDR", value_parser = value_parsers::listen_addr)]
    pub listen: SocketAddr,
    /// Listen on a non-loopback address (anyone who reaches it sees the metrics)
    #[arg(long)]
    pub allow_remote: bool,
    /// Serve the same figures for this long before asking the service again
    #[arg(long, default_value = "15s", value_name = "DURATION", value_parser = value_parsers::duration)]
    pub cache: Duration,
    /// Answer every scrape within this long: an ID not answered by then is
    /// ylem_up 0 for that scrape (Prometheus' own scrape timeout, less
    /// 0.5s, when that is shorter)
    #[arg(long, default_value = "8s", value_name = "DURATION", value_parser = value_parsers::duration)]
    pub scrape_timeout: Duration,
    /// TLS and basic auth, in the Prometheus exporter-toolkit's web
    /// configuration format (checked at start; read again when it changes)
    #[arg(long, value_name = "FILE")]
    pub web_config_file: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub targets: Targets,
}

/// `check`'s copies of the global options: no columns, and `-o` with
/// what it takes (`commands/monitor/check_output.rs` refuses the rest).
fn check_globals() -> Vec<clap::Arg> {
    let mut args = ignoring(&["fields", "no_header", "csv_raw", "concurrency", "jq"]);
    let globals = GlobalArgs::augment_args(clap::Command::new("globals"));
    let output = globals.get_arguments().find(|a| a.get_id() == "output");
    args.push(
        output
            .expect("the global -o")
            .clone()
            .hide_possible_values(true)
            .help("Output: table (the plugin's status line, the default), json ({state, message, perfdata}) or prometheus"),
    );
    args
}
