//! The cache directory's store of what the client keeps across processes
//! (`ylem_client::api::kept`: a pipeline run's basis): one file a key, in a
//! folder per server, written whole (a temporary file, then renamed) and
//! bounded (the oldest files go past `MAX_FILES`). Nothing secret is kept
//! here: task UUIDs and times. A file that cannot be read or written is a
//! basis asked for again, never an error.

use std::path::{Path, PathBuf};

use ylem_client::api::kept::Store;

/// At most this many kept files a server.
const MAX_FILES: usize = 512;

/// Kept texts as files under `dir/<server>/`.
pub struct KeptFiles {
    dir: PathBuf,
}

impl KeptFiles {
    /// The store of the server at `base_url` in cache directory `root`.
    pub fn new(root: &Path, base_url: &str) -> KeptFiles {
        KeptFiles {
            dir: root.join("kept").join(folder(base_url)),
        }
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        let ok = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        ok.then(|| self.dir.join(format!("{key}.json")))
    }

    /// Past `MAX_FILES`, the oldest files (by modification) go.
    fn bound(&self) {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        if files.len() <= MAX_FILES {
            return;
        }
        files.sort();
        for (_, p) in &files[..files.len() - MAX_FILES] {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// A server's folder name: its base URL with every other character `_`.
fn folder(base_url: &str) -> String {
    base_url
        .trim_end_matches('/')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(120)
        .collect()
}

impl Store for KeptFiles {
    fn read(&self, key: &str) -> Option<String> {
        std::fs::read_to_string(self.path(key)?).ok()
    }

    fn write(&self, key: &str, text: &str) {
        let Some(path) = self.path(key) else {
            return;
        };
        if create_private(&self.dir).is_err() {
            return;
        }
        let tmp = self.dir.join(format!(".{key}.{}.tmp", std::process::id()));
        if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, &path).is_ok() {
            self.bound();
        } else {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// `dir` and its parents, the new ones readable by their owner only.
fn create_private(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_text_reads_back_keys_stay_in_their_folder_and_the_count_is_bounded() {
        let root = std::env::temp_dir().join(format!("ylemctl-kept-{}", std::process::id()));
        let s = KeptFiles::new(&root, "http://127.0.0.1:7339/");
        s.write("basis-v1-a", "{}");
        assert_eq!(s.read("basis-v1-a").as_deref(), Some("{}"));
        s.write("../escape", "x");
        assert_eq!(s.read("../escape"), None);
        for i in 0..MAX_FILES + 3 {
            s.write(&format!("k{i}"), "x");
        }
        let n = std::fs::read_dir(&s.dir).unwrap().count();
        assert!(n <= MAX_FILES, "{n} files");
        let _ = std::fs::remove_dir_all(&root);
    }
}
