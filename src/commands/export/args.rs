//! `export otlp` and `export openlineage`: their clap definitions, read by
//! `command.rs`.

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::cli::{KeyFile, WindowArgs, exits};
use crate::value_parsers;

/// What `--follow` does, in both commands' help.
macro_rules! follow_help {
    () => {
        "\n\n--follow: export each run once, when it finishes, until Ctrl-C or SIGTERM (then exit 0, with what was acknowledged kept). It starts with the window's runs (default: the last 24 hours) and a cursor in the state directory ($YLEM_STATE_DIR, else systemd's $STATE_DIRECTORY, else ~/.local/state/ylemctl) that advances only when the receiver acknowledged: a restart neither loses nor repeats a run. A receiver that is down is asked again with backoff, the runs read again from the service rather than held."
    };
}

/// Export finished runs: each a trace (OpenTelemetry) or run events (OpenLineage)
#[derive(Debug, Parser)]
#[command(name = "export")]
pub struct ExportArgs {
    #[command(subcommand)]
    pub command: ExportCommand,
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// Each finished pipeline run as one OpenTelemetry trace, by OTLP/HTTP (or OTLP JSON lines on stdout)
    #[command(
        override_usage = "ylemctl export otlp [[KIND:]ID|ALIAS]... [--since TIME | --from TIME --to TIME] [--endpoint URL] [--protocol http/protobuf|http/json] [--follow]",
        after_help = concat!(
            "Examples:\n  ylemctl export otlp orders --since 1d                         # OTLP JSON lines on stdout\n  ylemctl export otlp --endpoint http://127.0.0.1:4318         # every alias, to a Collector (POST /v1/traces)\n  OTEL_EXPORTER_OTLP_HEADERS='x-honeycomb-team=...' ylemctl export otlp --endpoint https://api.honeycomb.io --follow",
            "\n\nA run is exported once it has finished by the same rule as 'runs' (a failed one once no new task came for the settle time, so its trace holds every task); a run in progress is left for a later export. Its trace ID is the run UUID's 16 bytes and its span IDs are derived from it: the same run exported twice is the same trace. The root span runs from the first task's start to the last task's end, status ERROR with the failure when a task failed; a child span per task entry (start executed_at - duration, end executed_at). Attributes: the OpenTelemetry CI/CD semantic conventions 1.37.0 (cicd.pipeline.name, cicd.pipeline.run.id, cicd.pipeline.result, cicd.pipeline.task.name, cicd.pipeline.task.type, cicd.pipeline.task.run.result) and ylem.* (the task's UUID, type, duration and metric_value); the resource's service.name is OTEL_SERVICE_NAME (default ylem).",
            "\n\nEnvironment: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (the URL as is), OTEL_EXPORTER_OTLP_ENDPOINT (/v1/traces appended; --endpoint is taken the same way), OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TRACES_HEADERS (key=value,... sent with every request, never shown: they are secrets), OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_TIMEOUT (ms), OTEL_SERVICE_NAME. A 429, 502, 503 or 504 is retried after its Retry-After or with backoff; a partial success (spans the receiver rejected) is reported, exit 5.",
            follow_help!(),
            exits!("5 the receiver refused or rejected spans, 6 the receiver could not be reached after its retries"),
        )
    )]
    Otlp(OtlpArgs),
    /// Each finished pipeline run as an OpenLineage START and COMPLETE or FAIL event (POSTed, or JSON lines on stdout)
    #[command(
        name = "openlineage",
        override_usage = "ylemctl export openlineage [[KIND:]ID|ALIAS]... [--since TIME | --from TIME --to TIME] [--url URL] [--namespace NS] [--follow]",
        after_help = concat!(
            "Examples:\n  ylemctl export openlineage orders --since 1d                 # JSON lines on stdout\n  ylemctl export openlineage --url http://127.0.0.1:5000       # Marquez: POST /api/v1/lineage\n  OPENLINEAGE_API_KEY=... ylemctl export openlineage --url https://lineage.example --namespace ylem-prod --follow",
            "\n\nOpenLineage 2-0-2 run events: run.runId the run UUID, job.name the pipeline's alias (or UUID), job.namespace --namespace (default: the service's host), eventTime the run's first task's start (START) and last task's end (COMPLETE or FAIL); a failed run's failure is its errorMessage run facet. A run is exported once finished, by the same rule as 'runs'.",
            "\n\nEnvironment: OPENLINEAGE_URL (as --url), OPENLINEAGE_API_KEY (sent as Authorization: Bearer, never shown), OPENLINEAGE_NAMESPACE (as --namespace). A 429, 502, 503 or 504 is retried after its Retry-After or with backoff.",
            follow_help!(),
            exits!("5 the receiver refused an event, 6 the receiver could not be reached after its retries"),
        )
    )]
    Openlineage(LineageArgs),
}

/// What both commands take.
#[derive(Debug, Args, Clone)]
pub struct Common {
    /// Pipeline UUIDs or aliases, optionally prefixed `pipeline:` (default:
    /// every pipeline alias in the profile); only pipelines have a log of
    /// their runs to export
    #[arg(value_name = "[KIND:]ID|ALIAS")]
    pub ids: Vec<String>,
    #[command(flatten)]
    pub window: WindowArgs,
    /// Keep exporting runs as they finish, until Ctrl-C or SIGTERM
    #[arg(long)]
    pub follow: bool,
    /// With --follow: how often to look for runs that finished
    #[arg(long, default_value = "30s", value_name = "DURATION", requires = "follow", value_parser = value_parsers::positive_duration)]
    pub poll: Duration,
    #[command(flatten)]
    pub key: KeyFile,
}

#[derive(Debug, Args, Clone)]
pub struct OtlpArgs {
    #[command(flatten)]
    pub common: Common,
    /// The OTLP/HTTP receiver: a base URL (/v1/traces is appended, as for
    /// OTEL_EXPORTER_OTLP_ENDPOINT) or the traces URL itself; without one
    /// (nor the variables), OTLP JSON lines on stdout
    #[arg(long, value_name = "URL")]
    pub endpoint: Option<String>,
    /// How the traces are encoded (default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf)
    #[arg(long, value_name = "PROTOCOL")]
    pub protocol: Option<Protocol>,
}

#[derive(Debug, Args, Clone)]
pub struct LineageArgs {
    #[command(flatten)]
    pub common: Common,
    /// The OpenLineage HTTP endpoint: a base URL (/api/v1/lineage is
    /// appended) or the endpoint itself; without one (nor OPENLINEAGE_URL),
    /// JSON lines on stdout
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The jobs' namespace (default: OPENLINEAGE_NAMESPACE, else the service's host)
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
}

/// OTLP's protocols over HTTP (gRPC is not spoken).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    #[value(name = "http/protobuf")]
    Protobuf,
    #[value(name = "http/json")]
    Json,
}
