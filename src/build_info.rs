//! The commit a build comes from, as `--version` shows it: shared by
//! build.rs (which runs it) and the unit tests (which run it outside git).

use std::path::Path;
use std::process::Command;

/// `git ARGS` in `root`, its trimmed output; None when git is missing,
/// fails, or says nothing.
pub fn git(root: &Path, args: &[&str]) -> Option<String> {
    let o = Command::new("git")
        .current_dir(root)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let s = String::from_utf8(o.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// "307d23ec4 2026-12-01": HEAD's short hash (9 digits, as uv) and its
/// commit date. None unless `root` is the top of a git work tree: a
/// tarball unpacked inside another repository must not take that
/// repository's commit for its own.
pub fn commit_of(root: &Path) -> Option<String> {
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(Path::new(&top), root) {
        return None;
    }
    git(
        root,
        &["log", "-1", "--abbrev=9", "--date=short", "--format=%h %cd"],
    )
}

/// `--version`'s text after the name: "0.1.0 (307d23ec4 2026-12-01)", or
/// with `info` empty (no git at build time) "0.1.0 (built outside git: no
/// commit recorded)".
pub fn version_text(version: &str, info: &str) -> String {
    if info.is_empty() {
        format!("{version} (built outside git: no commit recorded)")
    } else {
        format!("{version} ({info})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_without_git_records_no_commit_and_says_so() {
        // A source tarball: the files, no .git, in a temporary folder.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\n").unwrap();
        let info = commit_of(dir.path());
        assert_eq!(info, None);
        assert_eq!(
            version_text("0.1.0", &info.unwrap_or_default()),
            "0.1.0 (built outside git: no commit recorded)"
        );
    }

    #[test]
    fn a_tarball_inside_another_repository_does_not_take_its_commit() {
        let repo = tempfile::tempdir().unwrap();
        let run = |args: &[&str], dir: &Path| {
            let ok = Command::new("git")
                .current_dir(dir)
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@t",
                    "-c",
                    "commit.gpgsign=false",
                ])
                .args(args)
                .output()
                .unwrap()
                .status
                .success();
            assert!(ok, "git {args:?}");
        };
        run(&["init", "-q"], repo.path());
        run(&["commit", "-q", "--allow-empty", "-m", "x"], repo.path());
        let inner = repo.path().join("ylemctl-0.1.0");
        std::fs::create_dir(&inner).unwrap();
        assert!(
            commit_of(repo.path()).is_some(),
            "the repository's own top has one"
        );
        assert_eq!(commit_of(&inner), None);
    }

    #[test]
    fn a_commit_reads_as_uv_says_it() {
        let repo = tempfile::tempdir().unwrap();
        let git_ok = |args: &[&str]| {
            Command::new("git")
                .current_dir(repo.path())
                .env("GIT_COMMITTER_DATE", "2026-12-01T23:30:00+00:00")
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@t",
                    "-c",
                    "commit.gpgsign=false",
                ])
                .args(args)
                .status()
                .unwrap()
                .success()
        };
        assert!(git_ok(&["init", "-q"]));
        assert!(git_ok(&["commit", "-q", "--allow-empty", "-m", "x"]));
        let info = commit_of(repo.path()).unwrap();
        let full = git(repo.path(), &["rev-parse", "HEAD"]).unwrap();
        assert_eq!(info, format!("{} 2026-12-01", &full[..9]));
        assert_eq!(
            version_text("0.1.0", &info),
            format!("0.1.0 ({} 2026-12-01)", &full[..9])
        );
    }
}
