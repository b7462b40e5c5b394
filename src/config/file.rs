//! `config.toml` itself: its profiles (`Profile`), reading, checking and
//! saving the whole file (`ConfigFile`), and the private directory and
//! atomic writes it and the credential files are saved with. Never a secret.
//!
//! Saving is read-modify-write of the whole TOML table, so other profiles and
//! keys this version does not know (aliases, later settings) survive, and the
//! write is atomic (temp file + rename) so a crash never leaves half a file.
//! A file that does not parse is a usage error naming it, and is never
//! overwritten: it may hold hand-written settings worth more than a login.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{base_url, read};
use crate::error::{Error, Result};

/// One profile's non-secret settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub base_url: Option<String>,
    pub client_id: Option<String>,
    /// `keyring` or `file`: where `login` put the secret.
    pub store: Option<String>,
    /// The server wanted `YYYY-MM-DD 00:00:00` in aggregate requests.
    pub aggregate_date_time: bool,
}

pub struct ConfigFile {
    pub path: PathBuf,
    table: toml::Table,
}

/// Profile names become file names and keyring entries: keep them plain.
pub fn check_profile_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "invalid profile name '{name}': use letters, digits, '-', '_' and '.'"
        )))
    }
}

/// Unix file modes, where the platform has them. Elsewhere (Windows) the
/// config directory is under the user's profile, whose access list already
/// keeps other users out, and the secret is in the OS credential manager:
/// nothing is set.
#[cfg(unix)]
mod modes {
    use std::fs::{self, DirBuilder, OpenOptions};
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    use std::path::Path;

    pub fn dir(b: &mut DirBuilder, mode: u32) -> &mut DirBuilder {
        b.mode(mode)
    }
    pub fn open(o: &mut OpenOptions, mode: u32) -> &mut OpenOptions {
        o.mode(mode)
    }
    pub fn set(path: &Path, mode: u32) -> std::io::Result<()> {
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
    }
    pub fn temp(b: &mut tempfile::Builder<'_, '_>, mode: u32) {
        b.permissions(fs::Permissions::from_mode(mode));
    }
    /// A file that exists and is another user's (root's, after a `sudo`)
    /// is not replaced by one of ours: `temp` was just made by us.
    pub fn same_owner(path: &Path, temp: &Path) -> std::io::Result<()> {
        use std::os::unix::fs::MetadataExt;
        let (Ok(old), Ok(ours)) = (fs::metadata(path), fs::metadata(temp)) else {
            return Ok(());
        };
        if old.uid() == ours.uid() {
            return Ok(());
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "it belongs to user {}, not to this user ({}): not replaced",
                old.uid(),
                ours.uid()
            ),
        ))
    }
}

#[cfg(not(unix))]
mod modes {
    use std::fs::{DirBuilder, OpenOptions};
    use std::path::Path;

    pub fn dir(b: &mut DirBuilder, _mode: u32) -> &mut DirBuilder {
        b
    }
    pub fn open(o: &mut OpenOptions, _mode: u32) -> &mut OpenOptions {
        o
    }
    pub fn set(_path: &Path, _mode: u32) -> std::io::Result<()> {
        Ok(())
    }
    pub fn temp(_b: &mut tempfile::Builder<'_, '_>, _mode: u32) {}
    pub fn same_owner(_path: &Path, _temp: &Path) -> std::io::Result<()> {
        Ok(())
    }
}

/// Create `dir` (and parents) if missing, `dir` itself with mode 0700. A
/// directory that exists keeps its mode: the user's choice (a read-only
/// 0500, a shared 0750) is theirs, and `doctor` warns about a loose one.
pub fn ensure_private_dir(dir: &Path) -> Result<()> {
    check_dir(dir)?;
    if dir.is_dir() {
        return Ok(());
    }
    modes::dir(fs::DirBuilder::new().recursive(true), 0o700)
        .create(dir)
        .map_err(|e| io_error("cannot create", dir, e))
}

/// Write the state file `path` (config, credentials) atomically: a file
/// that exists keeps its mode and owner (written with its mode, refused
/// when it is read-only or another user's, never replaced silently by one
/// of other modes or ours); a new one gets `mode`. The abandoned temp files
/// of earlier writes beside it are swept first.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    let dir = parent_of(path);
    super::temps::sweep(dir, super::temps::is_state);
    let mode = match existing_mode(path)? {
        Some(m) => m,
        None => mode,
    };
    replace_checked(path, bytes, mode, true).map_err(|e| io_error("cannot write", path, e))
}

/// The mode of the file `path` if there is one; an error when it is
/// read-only to its owner (the user said: do not change it).
fn existing_mode(path: &Path) -> Result<Option<u32>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(m) = fs::metadata(path) else {
            return Ok(None);
        };
        let mode = m.permissions().mode() & 0o7777;
        if mode & 0o200 == 0 {
            return Err(Error::usage(format!(
                "{} is read-only (mode {mode:o}): not changed",
                path.display()
            ))
            .with_hint(format!(
                "to let ylemctl write it: chmod u+w {}",
                path.display()
            )));
        }
        Ok(Some(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(None)
    }
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The one atomic file writer (config, credential files, `--output-file`):
/// `tempfile`'s named temporary file beside `path`, whose name starts with
/// a dot (collectors that read `*.prom` never see it) and carries our PID
/// (`temps`: the sweep of a killed write's), created new under a random
/// name (never through a link another user planted in a shared directory
/// such as a textfile collector's) with `mode`, synced, then persisted
/// (renamed) over `path`. Nothing is left behind on failure: the temporary
/// file is removed when it is dropped unpersisted.
pub fn replace_file(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    super::temps::sweep(parent_of(path), |t| t == name);
    replace_checked(path, bytes, mode, false)
}

fn replace_checked(path: &Path, bytes: &[u8], mode: u32, same_owner: bool) -> std::io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let prefix = super::temps::prefix(name);
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".tmp");
    modes::temp(&mut b, mode);
    super::fault::point();
    let mut f = b.tempfile_in(parent_of(path))?;
    if same_owner {
        modes::same_owner(path, f.path())?;
    }
    // The umask may have narrowed the mode asked for at creation.
    modes::set(f.path(), mode)?;
    f.write_all(bytes)?;
    f.as_file().sync_all()?;
    super::fault::point();
    f.persist(path).map(drop).map_err(|e| e.error)?;
    super::fault::point();
    Ok(())
}

/// A failed read or write of a local file. The machine's refusals (a
/// permission, a read-only file system, a full disk) are the user's to
/// fix, not a bug of ours: exit 2 with what to do; the old file is intact
/// (writes are renames).
pub fn io_error(what: &str, path: &Path, e: std::io::Error) -> Error {
    use std::io::ErrorKind as K;
    let hint = match e.kind() {
        K::PermissionDenied => Some(format!(
            "the directory or file is not writable by this user: check its mode and owner (ls -ld {})",
            parent_of(path).display()
        )),
        K::ReadOnlyFilesystem => Some("the file system is mounted read-only".to_string()),
        K::StorageFull | K::QuotaExceeded => {
            Some("the disk (or your quota) is full: free some space".to_string())
        }
        _ => None,
    };
    let message = format!("{what} {}: {e}", path.display());
    match hint {
        Some(h) => Error::usage(format!("{message}; nothing was changed")).with_hint(h),
        None => Error::internal(message),
    }
}

/// A config directory that exists must be a directory (a usage error
/// naming it, not an I/O failure deep in a read or a write).
fn check_dir(dir: &Path) -> Result<()> {
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => Err(Error::usage(format!(
            "the config directory {} is {}, not a directory",
            dir.display(),
            read::kind_of(&m)
        ))
        .with_hint("set YLEM_CONFIG_DIR to a directory, or move the file away")),
        _ => Ok(()),
    }
}

impl ConfigFile {
    /// Read `config.toml` in `dir`; a missing file is an empty config. It
    /// must be a regular file of UTF-8 text within `read::SMALL`.
    pub fn load(dir: &Path) -> Result<ConfigFile> {
        check_dir(dir)?;
        // A killed write's temp files go at the next command (best effort).
        super::temps::sweep(dir, super::temps::is_state);
        super::temps::sweep(&dir.join("credentials"), super::temps::is_state);
        let path = dir.join("config.toml");
        let text = read::bounded_text(&path, "config file", read::SMALL)?.unwrap_or_default();
        let table: toml::Table = toml::from_str(&text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
                .unwrap_or(1);
            corrupt(&path, line, e.message())
        })?;
        let cfg = ConfigFile { path, table };
        // Check the shape of every profile now, so a bad value is reported
        // with the file's name rather than misread later.
        for name in cfg.profile_names() {
            cfg.profile(&name)?;
        }
        Ok(cfg)
    }

    fn profile_names(&self) -> Vec<String> {
        match self.table.get("profiles") {
            Some(toml::Value::Table(t)) => t.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// The profile `name`, if the file has one.
    pub fn profile(&self, name: &str) -> Result<Option<Profile>> {
        let profiles = match self.table.get("profiles") {
            None => return Ok(None),
            Some(toml::Value::Table(t)) => t,
            Some(_) => return Err(self.bad("'profiles' must be a table")),
        };
        let t = match profiles.get(name) {
            None => return Ok(None),
            Some(toml::Value::Table(t)) => t,
            Some(_) => return Err(self.bad(&format!("profiles.{name} must be a table"))),
        };
        let string = |k: &str| -> Result<Option<String>> {
            match t.get(k) {
                None => Ok(None),
                Some(toml::Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(self.bad(&format!("profiles.{name}.{k} must be a string"))),
            }
        };
        let aggregate_date_time = match t.get("aggregate_date_time") {
            None => false,
            Some(toml::Value::Boolean(b)) => *b,
            Some(_) => {
                return Err(self.bad(&format!(
                    "profiles.{name}.aggregate_date_time must be true or false"
                )));
            }
        };
        // Checked as a flag's would be: a bad one is named as such here,
        // not as another service's URL later.
        let base_url = string("base_url")?
            .map(|u| base_url::normalize(&u))
            .transpose()
            .map_err(|e| {
                e.context(format!(
                    "invalid config file {}: profiles.{name}.base_url",
                    self.path.display()
                ))
            })?;
        Ok(Some(Profile {
            base_url,
            client_id: string("client_id")?,
            store: string("store")?,
            aggregate_date_time,
        }))
    }

    /// Put `p` into profile `name`, keeping the profile's other keys.
    pub fn set_profile(&mut self, name: &str, p: &Profile) {
        let profiles = self
            .table
            .entry("profiles")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let Some(profiles) = profiles.as_table_mut() else {
            return;
        };
        let t = profiles
            .entry(name)
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let Some(t) = t.as_table_mut() else { return };
        for (k, v) in [
            ("base_url", &p.base_url),
            ("client_id", &p.client_id),
            ("store", &p.store),
        ] {
            match v {
                Some(v) => t.insert(k.into(), toml::Value::String(v.clone())),
                None => t.remove(k),
            };
        }
        if p.aggregate_date_time {
            t.insert("aggregate_date_time".into(), toml::Value::Boolean(true));
        } else {
            t.remove("aggregate_date_time");
        }
    }

    /// Write the file atomically (mode 0600: it says which clients exist).
    pub fn save(&self) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            ensure_private_dir(dir)?;
        }
        let text = toml::to_string(&self.table)
            .map_err(|e| Error::internal(format!("cannot write the config: {e}")))?;
        write_atomic(&self.path, text.as_bytes(), 0o600)
    }

    /// The whole TOML table, for other sections (aliases).
    /// The profile's `decrypt_key_file`, set by hand: the key file that
    /// opens encrypted task outputs, so cron lines need no flag.
    pub fn decrypt_key_file(&self, name: &str) -> Result<Option<PathBuf>> {
        let v = self
            .table
            .get("profiles")
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("decrypt_key_file"));
        match v {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(PathBuf::from(s))),
            Some(_) => Err(self.bad(&format!(
                "profiles.{name}.decrypt_key_file must be a string"
            ))),
        }
    }

    /// The profile's `settle`, set by hand (a duration such as `"15m"`):
    /// the settle time every command judges runs by, so that cron lines and
    /// the exporter need no flag.
    pub fn settle(&self, name: &str) -> Result<Option<std::time::Duration>> {
        let v = self
            .table
            .get("profiles")
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("settle"));
        let bad = || {
            self.bad(&format!(
                "profiles.{name}.settle must be a duration such as \"15m\""
            ))
        };
        match v {
            None => Ok(None),
            Some(toml::Value::String(s)) => crate::value_parsers::positive_duration(s)
                .map(Some)
                .map_err(|_| bad()),
            Some(_) => Err(bad()),
        }
    }

    pub fn table(&self) -> &toml::Table {
        &self.table
    }

    pub fn table_mut(&mut self) -> &mut toml::Table {
        &mut self.table
    }

    /// Read-modify-write under an exclusive lock, so concurrent invocations
    /// (parallel `alias set`s, a login beside a cron job) never lose each
    /// other's changes. `change` returns whether to save.
    pub fn update<T>(
        dir: &Path,
        change: impl FnOnce(&mut ConfigFile) -> Result<(bool, T)>,
    ) -> Result<T> {
        ensure_private_dir(dir)?;
        let lock_path = dir.join(".config.lock");
        read::refuse_special(&lock_path, "config lock file")?;
        let lock = modes::open(
            OpenOptions::new().create(true).truncate(false).write(true),
            0o600,
        )
        .open(&lock_path)
        .map_err(|e| io_error("cannot open", &lock_path, e))?;
        lock.lock()
            .map_err(|e| io_error("cannot lock", &lock_path, e))?;
        let mut cfg = ConfigFile::load(dir)?;
        let (save, out) = change(&mut cfg)?;
        if save {
            cfg.save()?;
        }
        drop(lock);
        Ok(out)
    }

    /// The raw text the file would have, for tests.
    #[cfg(test)]
    pub fn render(&self) -> String {
        toml::to_string(&self.table).unwrap_or_default()
    }

    /// A usage error naming the file (the alias table's checks use it too).
    pub(super) fn bad(&self, what: &str) -> Error {
        Error::usage(format!(
            "invalid config file {}: {what}",
            self.path.display()
        ))
        .with_hint("fix the file by hand; ylemctl does not overwrite a file it cannot read")
    }
}

fn corrupt(path: &Path, line: usize, msg: &str) -> Error {
    Error::usage(format!(
        "invalid config file {} at line {line}: {}",
        path.display(),
        msg.trim()
    ))
    .with_hint("fix the file by hand; ylemctl does not overwrite a file it cannot read")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profiles_settle_is_a_duration_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let at = |text: &str| {
            fs::write(dir.path().join("config.toml"), text).unwrap();
            ConfigFile::load(dir.path()).unwrap().settle("default")
        };
        assert_eq!(
            at("[profiles.default]\nsettle = \"15m\"\n").unwrap(),
            Some(std::time::Duration::from_secs(900))
        );
        assert_eq!(at("[profiles.other]\nsettle = \"15m\"\n").unwrap(), None);
        for bad in ["settle = 15", "settle = \"soon\"", "settle = \"0s\""] {
            let e = at(&format!("[profiles.default]\n{bad}\n")).unwrap_err();
            assert!(
                e.message.contains("profiles.default.settle"),
                "{bad}: {e:?}"
            );
        }
    }

    #[test]
    fn saving_keeps_other_profiles_and_unknown_keys() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("config.toml"),
            "[aliases]\nnightly = \"3f2a\"\n[profiles.other]\nbase_url = \"http://o\"\ncolour = \"blue\"\n[profiles.default]\nextra = 1\n",
        )
        .unwrap();
        let mut c = ConfigFile::load(dir.path()).unwrap();
        let p = Profile {
            base_url: Some("http://h".into()),
            client_id: Some("id".into()),
            store: Some("file".into()),
            aggregate_date_time: false,
        };
        c.set_profile("default", &p);
        c.save().unwrap();
        let c = ConfigFile::load(dir.path()).unwrap();
        assert_eq!(c.profile("default").unwrap().unwrap(), p);
        let text = c.render();
        for s in ["nightly", "colour = \"blue\"", "extra = 1", "http://o"] {
            assert!(text.contains(s), "{s} lost: {text}");
        }
    }

    #[test]
    fn a_corrupt_file_names_its_line() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("config.toml"), "[profiles]\n\nx = = 1\n").unwrap();
        let e = ConfigFile::load(dir.path()).err().unwrap();
        assert!(e.message.contains("config.toml at line 3"), "{}", e.message);
        assert_eq!(e.kind, crate::error::Kind::Usage);
    }

    #[test]
    fn the_machines_refusals_are_exit_2_and_other_failures_internal() {
        use std::io::{Error as IoError, ErrorKind as K};
        let p = Path::new("/x/config.toml");
        for k in [
            K::PermissionDenied,
            K::ReadOnlyFilesystem,
            K::StorageFull,
            K::QuotaExceeded,
        ] {
            let e = io_error("cannot write", p, IoError::from(k));
            assert_eq!(e.kind.exit_code(), 2, "{k:?}");
            assert!(e.message.contains("nothing was changed") && e.hint.is_some());
        }
        let e = io_error("cannot write", p, IoError::from(K::InvalidData));
        assert_eq!(e.kind, crate::error::Kind::Internal);
    }

    #[test]
    fn an_existing_files_mode_is_kept_and_a_read_only_one_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("config.toml");
        fs::write(&f, "a = 1\n").unwrap();
        fs::set_permissions(&f, fs::Permissions::from_mode(0o644)).unwrap();
        write_atomic(&f, b"a = 2\n", 0o600).unwrap();
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o644
        );
        fs::set_permissions(&f, fs::Permissions::from_mode(0o400)).unwrap();
        assert_eq!(
            write_atomic(&f, b"a = 3\n", 0o600)
                .unwrap_err()
                .kind
                .exit_code(),
            2
        );
        assert_eq!(fs::read_to_string(&f).unwrap(), "a = 2\n");
    }

    #[test]
    fn profile_names_are_plain() {
        assert!(check_profile_name("prod-eu_1.x").is_ok());
        for bad in ["", "../x", ".hidden", "a/b", "a b"] {
            assert!(check_profile_name(bad).is_err(), "{bad}");
        }
    }
}
