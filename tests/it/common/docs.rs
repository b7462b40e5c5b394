//! The user documentation as the tests read it: README.md and the guide's
//! chapters (docs/*.md), one text, for tests that check what they say.

use std::path::Path;

/// README.md, then every docs/*.md in name order, joined.
pub fn text() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    let mut out = std::fs::read_to_string(root.join("README.md")).unwrap();
    for p in pages {
        out.push('\n');
        out.push_str(&std::fs::read_to_string(p).unwrap());
    }
    out
}

/// One chapter of the guide, by file name (`monitoring.md`).
pub fn chapter(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
