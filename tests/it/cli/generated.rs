//! The committed completions and man pages must match a fresh rendering of
//! `ylemctl::command()`. Regenerate with: YLEM_REGENERATE=1 cargo test --test it cli::generated::

use std::path::Path;

#[test]
fn completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let regenerate = std::env::var_os("YLEM_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (rel, fresh) in ylemctl::render_all() {
        let path = root.join(&rel);
        if regenerate {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &fresh).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(fresh.as_slice()) {
            stale.push(rel);
        }
    }
    assert!(
        stale.is_empty(),
        "generated files differ from ylemctl::command(): {stale:?}\nregenerate with: YLEM_REGENERATE=1 cargo test --test it cli::generated::"
    );
}

/// Every committed man page renders without a warning from `man --warnings`
/// (groff's own checks), as a packager's lintian run would see it.
#[test]
fn man_pages_render_without_warnings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut pages = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let o = std::process::Command::new("man")
            .args(["--warnings", "-E", "UTF-8", "-l"])
            .arg(&path)
            .env("MANWIDTH", "80")
            .env("MAN_KEEP_FORMATTING", "0")
            .output()
            .expect("man is installed (.ci/run installs man-db)");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() && err.trim().is_empty(),
            "{}: {err}",
            path.display()
        );
        pages += 1;
    }
    assert!(pages >= 10, "only {pages} man pages");
}
