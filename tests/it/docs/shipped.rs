//! The docs say what ships: the man pages say what the binary does (every
//! `YLEM_OUTPUT`, the exit codes of `runs --run R --wait`), the guide's
//! exporter example reads the web configuration where the shipped unit puts
//! it, and every status and last-run word the board shows is documented.

use crate::common::sandbox;

/// The pages say what the binary does (`cli::generated::` keeps them equal to
/// what it generates): `ylemctl(1)` names every `YLEM_OUTPUT`, `ylemctl-runs(1)`
/// gives 7 and 8 for `runs --run R --wait` and keeps its exit paragraphs out
/// of EXAMPLES; the guide's exporter example uses the web configuration
/// where the shipped unit reads it.
#[test]
fn man_pages_and_the_guide_say_what_ships() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let top = read("man/ylemctl.1");
    let output = top
        .split_once("\\fBYLEM_OUTPUT\\fR\n")
        .and_then(|(_, rest)| rest.lines().next())
        .unwrap();
    assert!(output.contains("prometheus"), "{output}");
    let runs = read("man/ylemctl-runs.1");
    let section = |name: &str| -> String {
        let (_, rest) = runs.split_once(&format!(".SH {name}\n")).unwrap();
        rest.split("\n.SH ").next().unwrap().to_string()
    };
    let examples = section("EXAMPLES");
    assert!(!examples.contains("Exit status"), "{examples}");
    let exits = section("\"EXIT STATUS\"");
    for code in ["7", "8"] {
        let item = exits
            .split_once(&format!("\\fB{code}\\fR\n"))
            .and_then(|(_, rest)| rest.lines().next())
            .unwrap();
        assert!(item.contains("runs \\-\\-run"), "{code}: {item}");
    }
    assert!(
        exits.contains("(\\-\\-wait) \\-\\-wait\\-timeout ran out"),
        "{exits}"
    );
    let unit = read("examples/ylemctl-exporter.service");
    let shipped = unit
        .lines()
        .find_map(|l| l.strip_prefix("LoadCredential=web.yml:"))
        .unwrap();
    assert_eq!(shipped, "/etc/ylemctl/exporter/web.yml");
    let readme = read("docs/monitoring.md");
    let named: Vec<&str> = readme
        .split_whitespace()
        .filter(|w| w.starts_with("/etc/ylemctl/") && w.ends_with("web.yml"))
        .collect();
    assert!(!named.is_empty());
    assert!(named.iter().all(|w| *w == shipped), "{named:?}");
}

#[test]
fn every_status_and_last_run_word_the_board_shows_is_documented() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/monitoring.md"))
            .unwrap();
    let at = readme.find("`status` is `failed`").unwrap();
    let doc = &readme[at..at + 1500];
    let words = [
        "failed",
        "unknown",
        "degraded",
        "never",
        "running",
        "ok",
        "unsettled",
    ];
    for w in words {
        assert!(
            doc.contains(&format!("`{w}")),
            "the guide's status lacks {w}"
        );
    }
    // What the board says of the sandbox's entities is among them.
    let s = sandbox::start("ylem");
    let mut ids: Vec<String> = s
        .pipelines
        .iter()
        .map(|p| format!("pipeline:{}", p.0))
        .collect();
    ids.extend(s.workflows.iter().map(|w| format!("workflow:{w}")));
    let mut args = vec!["status"];
    args.extend(ids.iter().map(String::as_str));
    let v = s.json(&args);
    for row in v.as_array().unwrap() {
        let status = row["status"].as_str().unwrap();
        assert!(words.contains(&status), "{status} undocumented: {row}");
    }
}
