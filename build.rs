//! Build script: records the git commit the binary is built from, for
//! `ylemctl --version`. Outside a git checkout (a crates.io or source
//! tarball build) the commit is "unknown".

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into());
    let dirty = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some_and(|o| !o.stdout.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=YLEMCTL_GIT_COMMIT={commit}{suffix}");
    // Rebuild when HEAD moves (a commit, a checkout) or the index changes.
    for f in [".git/HEAD", ".git/index"] {
        println!("cargo:rerun-if-changed={f}");
    }
    if let Ok(head) = std::fs::read_to_string(".git/HEAD")
        && let Some(r) = head.strip_prefix("ref: ")
    {
        println!("cargo:rerun-if-changed=.git/{}", r.trim());
    }
}
