//! The temporary files of our atomic writes: their names
//! (`.TARGET.PID.RANDOM.tmp`, beside TARGET), and the sweep that removes
//! those a killed write left. A write is a temp file renamed over its
//! target; a process killed between the two leaves the temp file, which
//! may hold a client secret. The next write beside it (and the next read
//! of the config directory) removes every temp file of ours whose writer
//! is gone (its PID is not running) or that is older than a minute (no
//! write of ours takes that long, and a PID may be reused).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Older than this, a temp file is a dead write's whatever its PID says.
const STALE: Duration = Duration::from_secs(60);

/// The prefix of the temp files this process writes beside `target_name`.
pub fn prefix(target_name: &str) -> String {
    format!(".{target_name}.{}.", std::process::id())
}

/// A temp file's name taken apart: the target it was for, and its
/// writer's PID (`None`: a name of an older version, without one).
fn parse(name: &str) -> Option<(&str, Option<u32>)> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, _random) = inner.rsplit_once('.')?;
    match rest.rsplit_once('.') {
        Some((target, pid)) if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) => {
            Some((target, pid.parse().ok()))
        }
        _ => Some((rest, None)),
    }
}

/// The state files whose temp files the config directory's sweep removes:
/// the config file and the credential files.
pub fn is_state(target: &str) -> bool {
    target == "config.toml" || target.ends_with(".secret.json") || target.ends_with(".token.json")
}

/// Our temp files in `dir` for a target `wanted` accepts.
pub fn ours(dir: &Path, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            parse(&name).is_some_and(|(target, _)| wanted(target))
        })
        .map(|e| e.path())
        .collect()
}

/// Whether a temp file's writer is surely gone.
fn abandoned(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let pid = name.as_deref().and_then(parse).and_then(|(_, pid)| pid);
    if pid == Some(std::process::id()) {
        return false;
    }
    let old = fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age > STALE);
    old || pid.is_some_and(|p| !running(p))
}

#[cfg(target_os = "linux")]
fn running(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

/// Elsewhere a PID cannot be checked without a system call crate: the age
/// alone decides.
#[cfg(not(target_os = "linux"))]
fn running(_pid: u32) -> bool {
    true
}

/// Remove the abandoned temp files in `dir` for targets `wanted` accepts;
/// best effort (a read-only directory keeps them, and `doctor` names them).
pub fn sweep(dir: &Path, wanted: impl Fn(&str) -> bool) {
    for p in ours(dir, wanted) {
        if abandoned(&p) {
            let _ = fs::remove_file(&p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_apart() {
        assert_eq!(
            parse(".default.secret.json.123.AbC9.tmp"),
            Some(("default.secret.json", Some(123)))
        );
        assert_eq!(parse(".config.toml.AbC9.tmp"), Some(("config.toml", None)));
        assert_eq!(parse("config.toml"), None);
        assert!(is_state("p.token.json") && !is_state("x.prom"));
    }

    #[test]
    fn a_dead_writers_file_goes_and_ours_stays() {
        let d = tempfile::tempdir().unwrap();
        // PID 0 never names a running process in /proc.
        let dead = d.path().join(".config.toml.0.Xy.tmp");
        let mine = d.path().join(format!("{}Xy.tmp", prefix("config.toml")));
        let other = d.path().join(".notes.txt.0.Xy.tmp");
        for p in [&dead, &mine, &other] {
            fs::write(p, "x").unwrap();
        }
        sweep(d.path(), is_state);
        assert!(!dead.exists() || cfg!(not(target_os = "linux")));
        assert!(mine.exists() && other.exists());
    }
}
