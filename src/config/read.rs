//! The one way the tool reads a file it is pointed at (`config.toml`, a
//! credential file, `--decrypt-key-file`, `--input @FILE`): a regular file,
//! read to a bound. A directory, a FIFO, a device (`/dev/zero` through a
//! link), a link loop or a file larger than the bound is a usage error
//! naming the path and what is wrong, never a hang or a growing process.

use std::fs::{self, File};
use std::io::{ErrorKind, Read};
use std::path::Path;

use crate::error::{Error, Result};

/// Bound of `config.toml` and the small files beside it: a hand-written
/// config is a few KiB.
pub const SMALL: u64 = 1 << 20;

/// Read the regular file at `path`, at most `max` bytes; `None` when there
/// is no such file. `what` names it in errors (`config file`).
pub fn bounded(path: &Path, what: &str, max: u64) -> Result<Option<Vec<u8>>> {
    let bad = |why: String| Error::usage(format!("{what} {}: {why}", path.display()));
    // The kind of file first, without opening it: opening a FIFO with no
    // writer blocks.
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(bad(io_why(&e))),
    };
    if !meta.is_file() {
        return Err(bad(format!("{}, not a regular file", kind_of(&meta))));
    }
    if meta.len() > max {
        return Err(bad(too_big(max)));
    }
    let f = File::open(path).map_err(|e| bad(io_why(&e)))?;
    // Checked again on what was opened: the path may have changed since.
    match f.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(m) => return Err(bad(format!("{}, not a regular file", kind_of(&m)))),
        Err(e) => return Err(bad(io_why(&e))),
    }
    let mut out = Vec::with_capacity(meta.len() as usize);
    f.take(max + 1)
        .read_to_end(&mut out)
        .map_err(|e| bad(io_why(&e)))?;
    if out.len() as u64 > max {
        return Err(bad(too_big(max)));
    }
    Ok(Some(out))
}

/// A file the tool opens to write or lock (a lock file) must be a regular
/// file when it exists: opening a FIFO to write blocks until a reader comes.
pub fn refuse_special(path: &Path, what: &str) -> Result<()> {
    match fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(Error::usage(format!(
            "{what} {}: {}, not a regular file",
            path.display(),
            kind_of(&m)
        ))),
        _ => Ok(()),
    }
}

/// As `bounded`, as UTF-8 text.
pub fn bounded_text(path: &Path, what: &str, max: u64) -> Result<Option<String>> {
    let Some(bytes) = bounded(path, what, max)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::usage(format!(
            "{what} {}: not UTF-8 text (an invalid byte at offset {at})",
            path.display()
        ))
    })
}

/// The size limit in words: `larger than 1 MiB`.
fn too_big(max: u64) -> String {
    match max {
        m if m >= 1 << 20 && m % (1 << 20) == 0 => format!("larger than {} MiB", m >> 20),
        m if m >= 1 << 10 && m % (1 << 10) == 0 => format!("larger than {} KiB", m >> 10),
        m => format!("larger than {m} bytes"),
    }
}

/// What an I/O error means for a path a person gave.
fn io_why(e: &std::io::Error) -> String {
    match e.kind() {
        ErrorKind::NotADirectory => "a directory on its path is a file".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        // ELOOP has no stable kind of its own.
        _ if e.raw_os_error() == Some(eloop()) => {
            "a loop of symbolic links (too many levels)".into()
        }
        _ => format!("cannot be read: {e}"),
    }
}

fn eloop() -> i32 {
    if cfg!(any(target_os = "linux", target_os = "android")) {
        40
    } else if cfg!(unix) {
        62 // the BSDs and macOS
    } else {
        -1
    }
}

/// `a directory`, `a FIFO`, `a character device`, in words.
pub fn kind_of(m: &fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_file() {
        return "a file";
    }
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        assert!(bounded(&f, "file", 8).unwrap().is_none());
        fs::write(&f, b"12345678").unwrap();
        assert_eq!(bounded(&f, "file", 8).unwrap().unwrap(), b"12345678");
        let e = bounded(&f, "file", 7).unwrap_err();
        assert_eq!(e.kind.exit_code(), 2);
        assert!(e.message.contains("larger than 7 bytes"), "{}", e.message);
        let e = bounded(dir.path(), "config file", 8).unwrap_err();
        assert!(
            e.message.ends_with("a directory, not a regular file"),
            "{}",
            e.message
        );
        let e = bounded(&f.join("x"), "file", 8).unwrap_err();
        assert!(e.message.contains("is a file"), "{}", e.message);
        fs::write(&f, b"\xff").unwrap();
        let e = bounded_text(&f, "file", 8).unwrap_err();
        assert!(e.message.contains("not UTF-8"), "{}", e.message);
        assert_eq!(too_big(1 << 20), "larger than 1 MiB");
        assert_eq!(too_big(64 << 20), "larger than 64 MiB");
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_link_loops_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let e = bounded(&zero, "file", 8).unwrap_err();
        assert!(e.message.contains("character device"), "{}", e.message);
        let a = dir.path().join("a");
        std::os::unix::fs::symlink(dir.path().join("b"), &a).unwrap();
        std::os::unix::fs::symlink(&a, dir.path().join("b")).unwrap();
        let e = bounded(&a, "file", 8).unwrap_err();
        assert!(e.message.contains("loop"), "{}", e.message);
        assert!(refuse_special(&zero, "lock file").is_err());
        assert!(refuse_special(&dir.path().join("none"), "lock file").is_ok());
    }
}
