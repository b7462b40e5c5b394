//! The integration suite, one binary (as ripgrep and cargo keep theirs): the
//! built `ylemctl` driven over loopback against the sandbox, wiremock or the
//! fault-injecting server, one module per area. The real-keyring tests stay
//! a binary of their own (`tests/keyring.rs`) for their CI run under a
//! session bus.

mod common;

mod aliases;
mod attach;
mod binding;
mod bodies;
mod check_output;
mod credentials;
mod cron;
mod csv_safe;
mod date_form;
mod differential;
mod doctor;
mod e2e_sandbox;
mod edges;
mod endpoints;
mod errors;
mod exporter_hardening;
mod exporter_log;
mod failures;
mod faults;
mod files;
mod first_steps;
mod follow;
mod generated;
mod help;
mod hints;
mod hostile;
mod hostile_text;
mod input;
mod interrupts;
mod jq;
mod jq_limits;
mod json_gen;
mod junit;
mod log_bodies;
mod logs_whole;
mod metrics;
mod named_causes;
mod operator;
mod pieces;
mod props;
mod props_differential;
mod props_logs;
mod refused_early;
mod rerun;
mod run_model;
mod run_quiet;
mod run_start_401;
mod runs;
mod runs_memory;
mod sandbox_banner;
mod sandbox_help;
mod shapes;
mod sigterm;
mod status;
mod streaming;
mod tables;
mod testing_report;
mod tls_proxy;
mod token_cache;
mod token_secrets;
mod verdicts;
mod watch;
mod watch_tty;
mod web_config;
mod wording;
mod zones;
