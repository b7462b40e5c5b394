//! `-o prometheus` for `stats`, `last-run`, `check` and `status`: the
//! samples of each ID, and writing the exposition to stdout or atomically to
//! `--output-file`. An ID the service refused or failed for is data
//! (`ylem_up 0`, its reason on stderr), not an error exit: a scrape or a
//! textfile collector still gets a whole, valid exposition.

use std::path::Path;

use uuid::Uuid;

use crate::cli::{CheckArgs, LastRunArgs, StatsArgs};
use crate::commands::kit::exit_status::ExitStatus;
use crate::commands::kit::last_known::last;
use crate::commands::monitor::board::last_samples;
use crate::commands::monitor::targets::alias_of;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::kinds::Entity;
use crate::output::prometheus::{self, Labels, Sample};
use crate::service::last_seen::range_stats_checked;
use crate::time::Window;

/// Write the exposition of `samples` to `--output-file` or stdout.
pub fn write(ctx: &Context, samples: &[Sample]) -> Result<()> {
    let text = prometheus::render(samples);
    match &ctx.settings.output_file {
        Some(path) => write_atomically(path, text.as_bytes()),
        None => ctx.write_out(text.as_bytes()),
    }
}

/// A temporary file beside `path`, then a rename (the project's one atomic
/// writer): node_exporter's textfile collector never reads half a file, and
/// nothing is left behind on failure. Mode 0644: the collector usually runs
/// as another user.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    if path.file_name().is_none() {
        return Err(Error::usage(format!(
            "--output-file {}: not a file name",
            path.display()
        )));
    }
    crate::config::replace_file(path, bytes, 0o644).map_err(|e| {
        Error::usage(format!(
            "cannot write --output-file {}: {e}",
            path.display()
        ))
        .with_hint(
            "the directory must exist and be writable: the file is written beside it, then renamed",
        )
    })
}

/// A directory that is missing is a usage error before any request (one
/// that cannot be written is found when writing, still leaving nothing).
pub fn check_dir(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => return Ok(()),
    };
    if dir.is_dir() {
        return Ok(());
    }
    Err(Error::usage(format!(
        "cannot write --output-file {}: no directory {}",
        path.display(),
        dir.display()
    )))
}

fn labels(ctx: &Context, kind: Entity, uuid: Uuid, window: Option<String>) -> Labels {
    Labels {
        kind: kind.to_string(),
        uuid: uuid.to_string(),
        alias: alias_of(ctx, uuid),
        window,
    }
}

/// Report a refused ID on stderr; its sample says `ylem_up 0`.
fn refused(ctx: &Context, e: &Error, kind: Entity, uuid: Uuid, labels: Labels) -> Sample {
    ctx.report(&e.clone().context(format!("{kind} {uuid}")));
    Sample {
        labels,
        ..Sample::default()
    }
}

/// The window's label: its length when it ends now (`24h`, `7d`), else
/// its bounds as an ISO 8601 interval.
fn window_label(w: &Window, now: chrono::DateTime<chrono::Utc>) -> String {
    if (now - w.to).num_seconds().abs() <= 1 {
        duration_label((w.to - w.from).num_seconds().max(0) as u64)
    } else {
        format!(
            "{}/{}",
            w.from.format("%Y-%m-%dT%H:%M:%SZ"),
            w.to.format("%Y-%m-%dT%H:%M:%SZ")
        )
    }
}

/// `604800` -> `7d`, `86400` -> `24h`, `5400` -> `90m`: the largest whole
/// unit, hours up to a day (as `status` labels its window).
pub fn duration_label(secs: u64) -> String {
    match secs {
        s if s > 86_400 && s % 86_400 == 0 => format!("{}d", s / 86_400),
        s if s > 0 && s % 3600 == 0 => format!("{}h", s / 3600),
        s if s > 0 && s % 60 == 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

pub async fn stats(args: &StatsArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let window = ctx.window(&args.window)?;
    let label = window_label(&window, ctx.settings.now);
    let api = ctx.api()?;
    let results = crate::commands::kit::fan_out::all(ctx.settings.concurrency, &ids, |id| {
        range_stats_checked(&api, args.kind, *id, &window)
    })
    .await;
    let samples: Vec<Sample> = ids
        .iter()
        .zip(results)
        .map(|(&id, r)| {
            let l = labels(ctx, args.kind, id, Some(label.clone()));
            match r {
                Err(e) => refused(ctx, &e, args.kind, id, l),
                Ok(s) => {
                    let at = s.last_run_executed_at.as_ref().and_then(|t| t.parsed());
                    let ran = at.is_some();
                    Sample {
                        labels: l,
                        up: true,
                        runs: Some(s.num_of_successes + s.num_of_failures),
                        failures: Some(s.num_of_failures),
                        average_duration_ms: Some(s.average_duration),
                        last_run_duration_ms: ran.then_some(s.last_run_duration),
                        last_run_timestamp: at.map(|t| t.timestamp()),
                        last_run_success: ran.then_some(s.is_last_run_successful),
                        run_in_progress: None,
                        check_status: None,
                    }
                }
            }
        })
        .collect();
    write(ctx, &samples)
}

pub async fn last_run(args: &LastRunArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let api = ctx.api()?;
    let now = ctx.settings.now;
    let results = crate::commands::kit::fan_out::all(ctx.settings.concurrency, &ids, |id| {
        last(&api, args.kind, *id, now)
    })
    .await;
    let samples: Vec<Sample> = ids
        .iter()
        .zip(results)
        .map(|(&id, r)| {
            let l = labels(ctx, args.kind, id, None);
            match r {
                Err(e) => refused(ctx, &e, args.kind, id, l),
                // No run found: up, with no last-run series; a run going:
                // the last finished run's, and `ylem_run_in_progress 1`.
                Ok(seen) => Sample {
                    labels: l,
                    up: true,
                    ..last_samples(&seen)
                },
            }
        })
        .collect();
    write(ctx, &samples)
}

/// `check -o prometheus`: what was measured, and the verdict as
/// `ylem_check_status`; exit 0 once the exposition is written.
pub async fn check(a: &CheckArgs, ctx: &Context) -> Result<ExitStatus> {
    let id = ctx.resolve_id_as(a.kind, &a.id)?;
    let l = labels(ctx, a.kind, id, Some(duration_label(a.window.as_secs())));
    let sample = match crate::commands::monitor::check::measure(a, ctx).await {
        Err(e) => Sample {
            check_status: Some(3),
            ..refused(ctx, &e, a.kind, id, l)
        },
        Ok(facts) => {
            let (status, _, _) =
                crate::commands::monitor::check::judge(a, &facts, ctx.settings.now);
            Sample {
                labels: l,
                up: true,
                runs: facts.rate.map(|(ok, failed)| ok + failed),
                failures: facts.rate.map(|(_, failed)| failed),
                check_status: Some(status as u8),
                ..last_samples(&facts.last)
            }
        }
    };
    write(ctx, &[sample])?;
    Ok(ExitStatus::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_of_durations() {
        assert_eq!(duration_label(86_400), "24h");
        assert_eq!(duration_label(7 * 86_400), "7d");
        assert_eq!(duration_label(24 * 3600 + 3600), "25h");
        assert_eq!(duration_label(5400), "90m");
        assert_eq!(duration_label(61), "61s");
    }

    #[test]
    fn atomic_write_leaves_nothing_on_failure() {
        let dir = std::env::temp_dir().join(format!("ylem-expo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ylem.prom");
        write_atomically(&path, b"ylem_up 1\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"ylem_up 1\n");
        let missing = dir.join("no-such-dir").join("ylem.prom");
        let e = write_atomically(&missing, b"x").unwrap_err();
        assert!(
            e.message.contains("cannot write --output-file"),
            "{}",
            e.message
        );
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
