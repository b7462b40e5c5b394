//! Build script: records the commit the binary is built from and that
//! commit's date, for `ylemctl --version` ("0.1.0 (307d23ec4 2026-12-01)",
//! uv's form). Outside a git checkout of this very tree (a source tarball,
//! the Debian package built from one, a tarball unpacked inside some other
//! repository) it records nothing, and `--version` says so instead.

use std::path::Path;

#[path = "src/build_info.rs"]
mod build_info;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&root);
    let info = build_info::commit_of(root).unwrap_or_default();
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let text = build_info::version_text(&version, &info);
    println!("cargo:rustc-env=YLEMCTL_VERSION={text}");
    // Rebuild when HEAD moves (a commit, a checkout). In a worktree .git is
    // a file, so ask git where HEAD and its branch live; a path that does
    // not exist would make cargo rerun this script on every build.
    for name in ["HEAD", "index"] {
        if let Some(p) = git(root, &["rev-parse", "--git-path", name]) {
            println!("cargo:rerun-if-changed={}", root.join(p).display());
        }
    }
    if let Some(r) = git(root, &["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(root, &["rev-parse", "--git-path", &r])
        && root.join(&p).exists()
    {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/build_info.rs");
}

fn git(root: &Path, args: &[&str]) -> Option<String> {
    build_info::git(root, args)
}
