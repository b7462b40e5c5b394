//! Local state that survives a crash and the user's own
//! permissions (shared helpers here): `kills` — a login, an alias change,
//! a logout and a token renewal killed (SIGKILL, through the debug build's
//! `YLEM_TEST_KILL_AT` switch) at each of their write points and at random
//! moments leave the old state or the new one, and no temp file outlives
//! the next command; `files` and `edges` — the config's files and values
//! at their edges; `modes` — the modes and owners the user gave the
//! config directory and files are kept (a non-root user via `setpriv`);
//! `leftovers` — doctor names temp files, logout removes every copy of the
//! secret, a damaged secret or an older version's mix is named. (A wall
//! clock that jumps under `watch`: `watch::clock`.)

pub mod edges;
mod files;
mod kills;
mod leftovers;
mod modes;

use std::path::{Path, PathBuf};

use crate::common::Out;
use crate::common::login::ylem_in;
use crate::common::sandbox::Sandbox;

/// Log profile `default` in to `sb` with the file store, with `env`.
pub fn login_args(sb: &Sandbox) -> Vec<String> {
    [
        "login",
        "--base-url",
        &sb.base,
        "--client-id",
        &sb.client_id,
        "--client-secret-stdin",
        "--store",
        "file",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

pub fn login(dir: &Path, sb: &Sandbox, env: &[(&str, &str)]) -> Out {
    let args = login_args(sb);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    ylem_in(dir, &a, Some(&format!("{}\n", sb.secret)), env)
}

/// Every temp file of ours left in the config directory or its store.
pub fn temps(dir: &Path) -> Vec<PathBuf> {
    [dir.to_path_buf(), dir.join("credentials")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with('.') && n.ends_with(".tmp")
        })
        .collect()
}

/// Whether any file under `dir` holds `needle`.
pub fn any_file_holds(dir: &Path, needle: &str) -> Option<PathBuf> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read(&p).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle))
            {
                return Some(p);
            }
        }
    }
    None
}
