//! What the measuring commands' `-o prometheus` paths share, and no
//! command's own measures: the labels of an ID, the sample of an ID the
//! service refused, the last-run gauges, and writing the exposition to
//! stdout or atomically to `--output-file`. An ID the service refused or
//! failed for is data (`ylem_up 0`, its reason on stderr), not an error
//! exit: a scrape or a textfile collector still gets a whole, valid
//! exposition. Each measuring command makes its own samples.

use std::path::Path;

use uuid::Uuid;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::prometheus::{self, Labels, Sample};
use ylem_client::Entity;
use ylem_client::runs::last::Last;

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

/// Whether `--output-file` can be written, before any request (exit 2
/// means nothing was sent): its directory exists, the path is no
/// directory, and a temporary file can be made beside it (as the atomic
/// write will), then removed. `/proc/x.prom`, a read-only or missing
/// directory are refused here, not after the requests.
pub fn check_dir(path: &Path) -> Result<()> {
    let cannot =
        |why: String| {
            Error::usage(format!("cannot write --output-file {}: {why}", path.display())).with_hint(
            "the directory must exist and be writable: the file is written beside it, then renamed",
        )
        };
    if path.file_name().is_none() {
        return Err(Error::usage(format!(
            "--output-file {}: not a file name",
            path.display()
        )));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(cannot(format!("no directory {}", dir.display())));
    }
    if path.is_dir() {
        return Err(cannot("it is a directory".into()));
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".probe")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| cannot(format!("cannot create a file in {}: {e}", dir.display())))
}

/// The labels of an ID given on the command line, with the alias that
/// names it in the profile.
pub fn labels(ctx: &Context, kind: Entity, uuid: Uuid, window: Option<String>) -> Labels {
    Labels {
        kind: kind.to_string(),
        uuid: uuid.to_string(),
        alias: alias_of(ctx, uuid),
        window,
    }
}

/// The alias naming `uuid`, for labels of commands that take plain IDs.
fn alias_of(ctx: &Context, uuid: Uuid) -> Option<String> {
    let all = match ctx.config().ok()? {
        Some(c) => c.alias_targets(&ctx.settings.profile).ok()?,
        None => return None,
    };
    all.into_iter()
        .find(|(_, (_, u))| *u == uuid)
        .map(|(n, _)| n)
}

/// Report a refused ID on stderr; its sample says `ylem_up 0`.
pub fn refused(ctx: &Context, e: &Error, kind: Entity, uuid: Uuid, labels: Labels) -> Sample {
    ctx.report(&e.clone().context(format!("{kind} {uuid}")));
    Sample {
        labels,
        ..Sample::default()
    }
}

/// `604800` -> `7d`, `86400` -> `24h`, `5400` -> `90m`: the largest whole
/// unit, hours up to a day (`24h`, not `1d`).
pub fn duration_label(secs: u64) -> String {
    match secs {
        s if s > 86_400 && s % 86_400 == 0 => format!("{}d", s / 86_400),
        s if s > 0 && s % 3600 == 0 => format!("{}h", s / 3600),
        s if s > 0 && s % 60 == 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

/// The last-run gauges of a sample: the last finished run's figures (a run
/// still going has none to give), and whether a run is in progress.
pub fn last_samples(last: &Last) -> Sample {
    let done = last.judged();
    Sample {
        last_run_duration_ms: done.map(|l| l.duration_ms),
        last_run_timestamp: done.map(|l| l.ended.timestamp()),
        last_run_success: done.and_then(|l| l.success()),
        run_in_progress: last.last().map(|_| last.in_progress().is_some()),
        ..Sample::default()
    }
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
