//! Why the TLS client could not be built, in words that name the cause:
//! reqwest reads `SSL_CERT_FILE` and `SSL_CERT_DIR` and fails with a bare
//! "builder error" when either is wrong; this looks at both and says which
//! variable, which file, and what is wrong with it.

use std::path::Path;

const PEM: &str = "-----BEGIN CERTIFICATE-----";

/// What is wrong with `SSL_CERT_FILE` or `SSL_CERT_DIR`, if anything.
pub fn env_problem() -> Option<String> {
    let get = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(file) = get("SSL_CERT_FILE")
        && let Some(p) = file_problem(Path::new(&file))
    {
        return Some(format!("SSL_CERT_FILE={}: {p}", Path::new(&file).display()));
    }
    if let Some(dirs) = get("SSL_CERT_DIR") {
        for dir in std::env::split_paths(&dirs) {
            if let Some(p) = dir_problem(&dir) {
                return Some(format!("SSL_CERT_DIR={}: {p}", dir.display()));
            }
        }
    }
    None
}

fn file_problem(path: &Path) -> Option<String> {
    match std::fs::read(path) {
        Err(e) => Some(format!("cannot read it: {e}")),
        Ok(b) if !String::from_utf8_lossy(&b).contains(PEM) => {
            Some("it holds no PEM certificate (-----BEGIN CERTIFICATE-----)".into())
        }
        Ok(_) => None,
    }
}

fn dir_problem(dir: &Path) -> Option<String> {
    match std::fs::metadata(dir) {
        Err(e) => Some(format!("cannot read it: {e}")),
        Ok(m) if !m.is_dir() => Some("not a directory".into()),
        Ok(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_and_one_without_a_certificate_are_named() {
        let dir = std::env::temp_dir();
        assert!(
            file_problem(Path::new("/nonexistent/ca.pem"))
                .unwrap()
                .contains("cannot read")
        );
        let junk = dir.join(format!("ylem-trust-{}.pem", std::process::id()));
        std::fs::write(&junk, "not a certificate").unwrap();
        assert!(file_problem(&junk).unwrap().contains("no PEM certificate"));
        std::fs::remove_file(&junk).unwrap();
        assert!(dir_problem(Path::new("/nonexistent-dir")).is_some());
        assert!(dir_problem(&dir).is_none());
    }
}
