//! Every relative link and anchor in the project's Markdown resolves: the
//! file (or folder) exists, and a `#fragment` names a heading of the target
//! file by GitHub's slug rule (mdBook's ids agree for plain headings) or an
//! HTML `id`/`name`. External links (a scheme, `//`) are not followed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The Markdown the link check reads: the top-level documents and every
/// `.md` under docs/ (whatever the guide holds today).
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "BENCHMARKS.md",
        "ARCHITECTURE.md",
        "TESTING.md",
    ]
    .iter()
    .map(|f| root.join(f))
    .collect();
    let mut dirs = vec![root.join("docs")];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                // mdBook's output, if someone built it in place.
                if p.file_name() != Some("book".as_ref()) {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// GitHub's heading slug (github-slugger): lower case, every character but
/// letters, digits, `-`, `_` and spaces dropped, spaces turned to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A heading's text as rendered: code marks, emphasis stars, HTML tags and
/// link destinations gone (`[text](url)` reads as `text`).
fn rendered(text: &str) -> String {
    let text = text.trim().trim_end_matches('#').trim_end();
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '*' => {}
            '<' => {
                for c in chars.by_ref() {
                    if c == '>' {
                        break;
                    }
                }
            }
            '!' if chars.peek() == Some(&'[') => {}
            '[' | ']' => {
                if c == ']' && chars.peek() == Some(&'(') {
                    for c in chars.by_ref() {
                        if c == ')' {
                            break;
                        }
                    }
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Markdown's lines outside fenced code blocks, each with its number.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<String> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let mark: String = t.chars().take_while(|&c| c == '`' || c == '~').collect();
        if let Some(open) = &fence {
            if mark.len() >= open.len() && mark.starts_with(&open[..1]) && t.trim() == mark {
                fence = None;
            }
        } else if mark.len() >= 3
            && (mark.chars().all(|c| c == '`') || mark.chars().all(|c| c == '~'))
        {
            fence = Some(mark);
        } else {
            out.push((i + 1, line));
        }
    }
    out
}

/// The anchors a Markdown file offers: its headings' slugs (a repeated
/// heading takes -1, -2, ...) and any HTML id or name.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = HashSet::new();
    let mut previous = "";
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        let setext = !previous.trim().is_empty()
            && !previous.trim_start().starts_with('#')
            && !t.is_empty()
            && (t.trim_end().chars().all(|c| c == '=') || t.trim_end().chars().all(|c| c == '-'));
        let heading = if (1..=6).contains(&hashes) && t[hashes..].starts_with([' ', '\t']) {
            Some(&t[hashes..])
        } else if setext {
            Some(previous)
        } else {
            None
        };
        if let Some(h) = heading {
            let base = slug(&rendered(h));
            let n = seen.entry(base.clone()).or_insert(0);
            out.insert(if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            });
            *n += 1;
        }
        for attr in ["id=\"", "name=\""] {
            for (at, _) in line.match_indices(attr) {
                let rest = &line[at + attr.len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                }
            }
        }
        previous = line;
    }
    out
}

/// A line without its inline code spans (a link shown as code is no link).
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut parts = line.split('`');
    let mut code = false;
    for p in parts.by_ref() {
        if !code {
            out.push_str(p);
        }
        code = !code;
    }
    out
}

/// The link destinations of a Markdown file, with their line numbers:
/// inline links and images, reference definitions, HTML href and src.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        let line = without_code(line);
        for (at, _) in line.match_indices("](") {
            let rest = &line[at + 2..];
            let mut depth = 0;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' if depth == 0 => return true,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map_or(rest.len(), |(i, _)| i);
            let dest = rest[..end].trim();
            let dest = match dest.strip_prefix('<') {
                Some(d) => d.split('>').next().unwrap_or(""),
                None => dest.split_whitespace().next().unwrap_or(""),
            };
            out.push((n, dest.to_string()));
        }
        let t = line.trim_start();
        if t.starts_with('[')
            && let Some(close) = t.find("]:")
            && !t[1..close].contains(']')
            && let Some(d) = t[close + 2..].split_whitespace().next()
        {
            out.push((n, d.trim_matches(['<', '>']).to_string()));
        }
        for attr in ["href=\"", "src=\""] {
            for (at, _) in line.match_indices(attr) {
                let rest = &line[at + attr.len()..];
                if let Some(end) = rest.find('"') {
                    out.push((n, rest[..end].to_string()));
                }
            }
        }
    }
    out
}

/// `%20` and the like, as a browser reads a path or fragment.
fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |j: usize| b.get(j).and_then(|c| (*c as char).to_digit(16));
        match (b[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn external(dest: &str) -> bool {
    dest.starts_with("//")
        || dest.split_once(':').is_some_and(|(s, _)| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
        })
}

/// Every broken link of `files` as "file:line: dest: why", paths shown
/// relative to `root`.
fn broken(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut cache: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    let show = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            problems.push(format!("{}: missing", show(file)));
            continue;
        };
        for (n, dest) in links(&text) {
            if dest.is_empty() || external(&dest) || dest.starts_with("{{") {
                continue;
            }
            let (path, fragment) = match dest.split_once('#') {
                Some((p, f)) => (p, Some(percent_decoded(f))),
                None => (dest.as_str(), None),
            };
            let path = path.split('?').next().unwrap_or("");
            let target = if path.is_empty() {
                file.clone()
            } else if let Some(abs) = path.strip_prefix('/') {
                root.join(percent_decoded(abs))
            } else {
                file.parent().unwrap().join(percent_decoded(path))
            };
            let at = format!("{}:{n}: {dest}", show(file));
            if !target.exists() {
                problems.push(format!("{at}: no such file {}", show(&target)));
                continue;
            }
            let Some(fragment) = fragment.filter(|f| !f.is_empty()) else {
                continue;
            };
            if target.extension().is_none_or(|x| x != "md") {
                continue; // a line anchor in code (#L10) and the like
            }
            let offered = cache
                .entry(target.clone())
                .or_insert_with(|| anchors(&std::fs::read_to_string(&target).unwrap_or_default()));
            if !offered.contains(&fragment) {
                problems.push(format!("{at}: no heading #{fragment} in {}", show(&target)));
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_and_anchor_in_the_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = documents(root);
    let problems = broken(root, &files);
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
    // The check read something: the documents have relative links at all.
    let count: usize = files
        .iter()
        .map(|f| links(&std::fs::read_to_string(f).unwrap()).len())
        .sum();
    assert!(count > 0, "no link found in {} files", files.len());
}

#[test]
fn the_link_check_finds_a_broken_file_a_broken_anchor_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("docs")).unwrap();
    std::fs::write(
        root.join("docs/guide.md"),
        "# Getting started\n\n## Exit codes: `0` and 2!\n\n## Exit codes: `0` and 2!\n\n\
         Setext heading\n--------------\n\n<a id=\"kept\"></a>\n",
    )
    .unwrap();
    std::fs::write(
        root.join("README.md"),
        "# Read me\n\n\
         [good](docs/guide.md) [anchor](docs/guide.md#exit-codes-0-and-2) \
         [second](docs/guide.md#exit-codes-0-and-2-1) [setext](docs/guide.md#setext-heading) \
         [html](docs/guide.md#kept) [self](#read-me) [web](https://example.invalid/x.md) \
         [code](src/main.rs#L3)\n\n\
         [gone](docs/missing.md) and [bad anchor](docs/guide.md#exit-codes)\n\n\
         `[not a link](nowhere.md)`\n\n```\n[in a fence](nowhere.md)\n```\n\n\
         [ref]: docs/also-missing.md\n",
    )
    .unwrap();
    std::fs::create_dir(root.join("src")).unwrap();
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    let files = vec![root.join("README.md"), root.join("docs/guide.md")];
    let problems = broken(root, &files);
    assert_eq!(
        problems,
        [
            "README.md:5: docs/missing.md: no such file docs/missing.md",
            "README.md:5: docs/guide.md#exit-codes: no heading #exit-codes in docs/guide.md",
            "README.md:13: docs/also-missing.md: no such file docs/also-missing.md",
        ],
    );
    assert_eq!(
        slug("What `--fields` does (and `-o csv`)"),
        "what---fields-does-and--o-csv"
    );
}
