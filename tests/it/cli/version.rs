//! `ylemctl --version`: the version, the commit and its date in uv's form,
//! the commit being the checkout's own HEAD (build.rs records it).

use crate::common::ylem;
use std::process::Command;

#[test]
fn version_names_the_commit_and_its_date_as_uv_does() {
    let root = env!("CARGO_MANIFEST_DIR");
    // What git says of this checkout; without one (a tarball's tests) the
    // binary says it was built outside git.
    let head = Command::new("git")
        .current_dir(root)
        .args(["log", "-1", "--abbrev=9", "--date=short", "--format=%h %cd"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8(o.stdout).unwrap().trim().to_string());
    let inside = head
        .as_deref()
        .map_or("built outside git: no commit recorded", |h| h);
    let want = format!("ylemctl {} ({inside})\n", env!("CARGO_PKG_VERSION"));
    for flag in ["--version", "-V"] {
        let o = ylem(&[flag], &[]);
        assert_eq!(o.code, 0, "{flag}: {}", o.stderr);
        assert_eq!(o.stdout, want, "{flag}");
    }
    if let Some(h) = head {
        let (hash, date) = h.split_once(' ').unwrap();
        assert!(
            hash.len() >= 9 && hash.chars().all(|c| c.is_ascii_hexdigit()),
            "{hash}"
        );
        assert_eq!(date.len(), 10, "{date}");
    }
}
