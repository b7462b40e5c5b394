//! The Prometheus text exposition format (version 0.0.4) for statistics of
//! tasks, pipelines and workflows: one gauge family per figure with `# HELP`
//! and `# TYPE`, units as suffixes, and a per-entity `ylem_up` so an ID the
//! service refused is a series of its own rather than a missing one.

use std::fmt::Write;

/// The labels of one entity's series.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Labels {
    pub kind: String,
    pub uuid: String,
    pub alias: Option<String>,
    /// The statistics window, e.g. `24h` (not on last-run figures).
    pub window: Option<String>,
}

/// What is known of one entity; `None` figures are left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sample {
    pub labels: Labels,
    /// Whether the service answered for it.
    pub up: bool,
    pub runs: Option<i64>,
    pub failures: Option<i64>,
    pub average_duration_ms: Option<i64>,
    pub last_run_duration_ms: Option<i64>,
    /// Unix seconds of the last run.
    pub last_run_timestamp: Option<i64>,
    pub last_run_success: Option<bool>,
    /// Whether the last run has not finished on evidence (the `last_run_*`
    /// gauges are then the last finished run's).
    pub run_in_progress: Option<bool>,
    /// `check`'s verdict: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
    pub check_status: Option<u8>,
    /// `stats`: the statistics' own `last_run_*` figures, as the server
    /// gave them (for a pipeline its latest task row, which may belong to a
    /// run still going), under names of their own: the `ylem_last_run_*`
    /// families always mean the last run judged finished on evidence, so
    /// one name never carries two values for one run.
    pub server_last_run: Option<ServerLastRun>,
}

/// The statistics' `last_run_*` fields (`stats -o prometheus`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ServerLastRun {
    /// `last_run_executed_at`, as Unix seconds.
    pub executed_at: i64,
    pub duration_ms: i64,
    pub successful: bool,
}

struct Family {
    name: &'static str,
    help: &'static str,
    /// Whether the window label applies.
    windowed: bool,
    value: fn(&Sample) -> Option<f64>,
}

const FAMILIES: &[Family] = &[
    Family {
        name: "ylem_up",
        help: "1 when the service answered for this entity, 0 when it refused or failed.",
        windowed: false,
        value: |s| Some(f64::from(u8::from(s.up))),
    },
    Family {
        name: "ylem_runs",
        help: "Runs in the statistics window.",
        windowed: true,
        value: |s| s.runs.map(|v| v as f64),
    },
    Family {
        name: "ylem_run_failures",
        help: "Failed runs (for pipelines: failed task rows) in the statistics window.",
        windowed: true,
        value: |s| s.failures.map(|v| v as f64),
    },
    Family {
        name: "ylem_average_duration_seconds",
        help: "Average run duration in the statistics window.",
        windowed: true,
        value: |s| s.average_duration_ms.map(ms_to_s),
    },
    Family {
        name: "ylem_last_run_duration_seconds",
        help: "Duration of the last finished run: the sum of its task durations.",
        windowed: false,
        value: |s| s.last_run_duration_ms.map(ms_to_s),
    },
    Family {
        name: "ylem_last_run_timestamp_seconds",
        help: "When the last finished run's last task ended, as Unix time.",
        windowed: false,
        value: |s| s.last_run_timestamp.map(|v| v as f64),
    },
    Family {
        name: "ylem_last_run_success",
        help: "1 when the last finished run succeeded, 0 when it failed.",
        windowed: false,
        value: |s| s.last_run_success.map(|b| f64::from(u8::from(b))),
    },
    Family {
        name: "ylem_run_in_progress",
        help: "1 while the last run has not finished on evidence (the last_run gauges are the last finished run's).",
        windowed: false,
        value: |s| s.run_in_progress.map(|b| f64::from(u8::from(b))),
    },
    Family {
        name: "ylem_stats_last_run_executed_at_seconds",
        help: "The statistics' last_run_executed_at, as the server gave it (for a pipeline: its latest task row, maybe a run still going), as Unix time.",
        windowed: false,
        value: |s| s.server_last_run.map(|l| l.executed_at as f64),
    },
    Family {
        name: "ylem_stats_last_run_duration_seconds",
        help: "The statistics' last_run_duration, as the server gave it.",
        windowed: false,
        value: |s| s.server_last_run.map(|l| ms_to_s(l.duration_ms)),
    },
    Family {
        name: "ylem_stats_last_run_successful",
        help: "The statistics' is_last_run_successful, as the server gave it: 1 or 0.",
        windowed: false,
        value: |s| s.server_last_run.map(|l| f64::from(u8::from(l.successful))),
    },
    Family {
        name: "ylem_check_status",
        help: "The check's status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
        windowed: false,
        value: |s| s.check_status.map(f64::from),
    },
];

fn ms_to_s(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

/// The exposition text of `samples`; a family none of them has is left out.
pub fn render(samples: &[Sample]) -> String {
    let mut out = String::new();
    for f in FAMILIES {
        let values: Vec<(&Sample, f64)> = samples
            .iter()
            .filter_map(|s| (f.value)(s).map(|v| (s, v)))
            .collect();
        if values.is_empty() {
            continue;
        }
        let _ = writeln!(out, "# HELP {} {}", f.name, f.help);
        let _ = writeln!(out, "# TYPE {} gauge", f.name);
        for (s, v) in values {
            let _ = writeln!(
                out,
                "{}{{{}}} {}",
                f.name,
                labels(&s.labels, f.windowed),
                number(v)
            );
        }
    }
    out
}

fn labels(l: &Labels, windowed: bool) -> String {
    let mut parts = vec![
        format!("kind=\"{}\"", escape(&l.kind)),
        format!("uuid=\"{}\"", escape(&l.uuid)),
    ];
    if let Some(a) = &l.alias {
        parts.push(format!("alias=\"{}\"", escape(a)));
    }
    if let (true, Some(w)) = (windowed, &l.window) {
        parts.push(format!("window=\"{}\"", escape(w)));
    }
    parts.join(",")
}

/// Label values escape `\`, `"` and newlines, as the format says.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Whole numbers without a fraction; others as Rust prints them (shortest
/// round-trip form), which Prometheus parses.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_have_help_type_and_labels() {
        let s = Sample {
            labels: Labels {
                kind: "pipeline".into(),
                uuid: "3f2a".into(),
                alias: Some("or\"ders".into()),
                window: Some("24h".into()),
            },
            up: true,
            runs: Some(12),
            failures: Some(1),
            average_duration_ms: Some(1500),
            last_run_duration_ms: Some(2000),
            last_run_timestamp: Some(1_700_000_000),
            last_run_success: Some(true),
            run_in_progress: Some(false),
            check_status: None,
            server_last_run: Some(ServerLastRun {
                executed_at: 1_699_999_990,
                duration_ms: 500,
                successful: false,
            }),
        };
        let down = Sample {
            labels: Labels {
                kind: "task".into(),
                uuid: "9d1e".into(),
                ..Labels::default()
            },
            ..Sample::default()
        };
        let text = render(&[s, down]);
        assert!(text.contains("# TYPE ylem_up gauge\n"));
        assert!(text.contains("ylem_up{kind=\"task\",uuid=\"9d1e\"} 0\n"));
        assert!(text.contains(
            "ylem_runs{kind=\"pipeline\",uuid=\"3f2a\",alias=\"or\\\"ders\",window=\"24h\"} 12\n"
        ));
        assert!(text.contains("ylem_average_duration_seconds{kind=\"pipeline\",uuid=\"3f2a\",alias=\"or\\\"ders\",window=\"24h\"} 1.5\n"));
        assert!(text.contains(
            "ylem_last_run_timestamp_seconds{kind=\"pipeline\",uuid=\"3f2a\",alias=\"or\\\"ders\"} 1700000000\n"
        ));
        // The server's own last-run figures have names of their own.
        assert!(text.contains(
            "ylem_stats_last_run_executed_at_seconds{kind=\"pipeline\",uuid=\"3f2a\",alias=\"or\\\"ders\"} 1699999990\n"
        ));
        assert!(text.contains("ylem_stats_last_run_successful{kind=\"pipeline\",uuid=\"3f2a\",alias=\"or\\\"ders\"} 0\n"));
        // The refused one has only ylem_up.
        assert_eq!(text.matches("uuid=\"9d1e\"").count(), 1);
    }
}
