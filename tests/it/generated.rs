//! The committed completions and man pages must match a fresh rendering of
//! `cli::command()`. Regenerate with: YLEM_REGENERATE=1 cargo test --test it generated::

use std::path::Path;

#[test]
fn completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let regenerate = std::env::var_os("YLEM_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (rel, fresh) in ylemctl::generate::render_all() {
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
        "generated files differ from cli::command(): {stale:?}\nregenerate with: YLEM_REGENERATE=1 cargo test --test it generated::"
    );
}
