//! A follower's cursor: per pipeline, the time its log is read from (the
//! earliest start of a run not finished yet, else a little before the last
//! look), and the runs exported since then. It is written atomically
//! after each acknowledged delivery and read at start, so a restart
//! neither loses a run (it reads from where it was) nor repeats one (the
//! runs it sent are named). It holds only the runs that end after its
//! read-from times: its size follows the runs of a window, never the
//! time it has run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::config::{ensure_private_dir, read, write_atomic};
use crate::error::{Error, Result};
use ylem_client::export::FinishedRun;

/// The largest cursor file read (a window of exported runs is far less).
const MAX_FILE: u64 = 16 << 20;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Saved {
    version: u32,
    /// What it is the cursor of, for a reader of the file.
    of: String,
    /// Per pipeline, where its log is read from.
    /// (Milliseconds since 1970, as every time in it.)
    from: BTreeMap<Uuid, i64>,
    /// Exported runs: their pipeline and end.
    exported: BTreeMap<Uuid, (Uuid, i64)>,
}

pub struct Cursor {
    path: PathBuf,
    saved: Saved,
}

/// The state directory: `YLEM_STATE_DIR`; with `YLEM_CONFIG_DIR`, its
/// `state`; systemd's `STATE_DIRECTORY` (a unit's `StateDirectory=`);
/// else the platform's (`~/.local/state/ylemctl`).
pub fn state_dir() -> Option<PathBuf> {
    let get = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    get("YLEM_STATE_DIR")
        .or_else(|| get("YLEM_CONFIG_DIR").map(|d| d.join("state")))
        .or_else(|| {
            get("STATE_DIRECTORY").map(|d| {
                // systemd lists several directories with ':'; the first is ours.
                let s = d.to_string_lossy().into_owned();
                PathBuf::from(s.split(':').next().unwrap_or_default())
            })
        })
        .or_else(|| {
            directories::ProjectDirs::from("", "", "ylemctl")
                .map(|d| d.state_dir().unwrap_or(d.data_local_dir()).to_path_buf())
        })
}

/// A short stable name for what a cursor is of (FNV-1a, 64 bits).
pub fn key(of: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in of.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl Cursor {
    /// The cursor of `of` in `dir`, as saved, or a new one.
    pub fn open(dir: &Path, name: &str, of: &str) -> Result<Cursor> {
        let path = dir.join(format!("{name}-{}.json", key(of)));
        let saved = match read::bounded_text(&path, "the export cursor", MAX_FILE)? {
            None => Saved {
                version: 1,
                of: of.to_string(),
                ..Saved::default()
            },
            Some(text) => serde_json::from_str(&text).map_err(|e| {
                Error::usage(format!("{}: not an export cursor ({e})", path.display())).with_hint(
                    "remove it to start again from the window (runs of the window exported before are then sent again)",
                )
            })?,
        };
        Ok(Cursor { path, saved })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where `pipeline`'s log is read from, if a look has been saved.
    pub fn from(&self, pipeline: Uuid) -> Option<DateTime<Utc>> {
        self.saved
            .from
            .get(&pipeline)
            .and_then(|ms| DateTime::from_timestamp_millis(*ms))
    }

    pub fn exported(&self, run: Uuid) -> bool {
        self.saved.exported.contains_key(&run)
    }

    /// Runs the receiver acknowledged.
    pub fn record(&mut self, runs: &[FinishedRun]) {
        for r in runs {
            let ended = r.ended.timestamp_millis();
            self.saved.exported.insert(r.run, (r.pipeline, ended));
        }
    }

    /// Read `pipeline` from `from` on; the runs of it that ended before,
    /// which no look reads again, are forgotten.
    pub fn advance(&mut self, pipeline: Uuid, from: DateTime<Utc>) {
        let from = self.from(pipeline).map_or(from, |f| f.max(from));
        self.saved.from.insert(pipeline, from.timestamp_millis());
        // A second of slack: the log's times are whole seconds.
        let gone = (from - chrono::Duration::seconds(1)).timestamp_millis();
        self.saved
            .exported
            .retain(|_, (p, ended)| *p != pipeline || *ended >= gone);
    }

    pub fn save(&self) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            ensure_private_dir(dir)?;
        }
        let text = serde_json::to_vec_pretty(&self.saved).unwrap_or_default();
        write_atomic(&self.path, &text, 0o600)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_cursor_is_read_back_and_forgets_what_no_look_reads() {
        let dir = tempfile::tempdir().unwrap();
        let p = Uuid::from_u128(1);
        let t = |s: i64| DateTime::<Utc>::from_timestamp(1_800_000_000 + s, 0).unwrap();
        let run = |n: u128, ended| FinishedRun {
            pipeline: p,
            pipeline_name: "p".into(),
            run: Uuid::from_u128(n),
            failed: false,
            failure: None,
            started: ended,
            ended,
            duration_ms: 0,
            completion: "settled".into(),
            tasks: vec![],
            omitted: 0,
        };
        let mut c = Cursor::open(dir.path(), "export-otlp", "x").unwrap();
        c.record(&[run(10, t(0)), run(11, t(100))]);
        c.advance(p, t(50));
        c.save().unwrap();
        let c = Cursor::open(dir.path(), "export-otlp", "x").unwrap();
        assert!(!c.exported(Uuid::from_u128(10)));
        assert!(c.exported(Uuid::from_u128(11)));
        assert_eq!(c.from(p), Some(t(50)));
        assert_eq!(c.saved.exported.len(), 1);
    }
}
