//! The evidence behind TESTING.md: each scenario checks every output and
//! file it produced for the known secret values, then records what it
//! proved in `target/testing-report/<id>.json`. `tests/it/docs/testing_report.rs`
//! assembles those records into TESTING.md when asked.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use super::{Out, REFRESH, SECRET, TOKEN};

/// Every value that must never be shown: the secret, the tokens of both
/// grants the test servers hand out.
pub const SECRETS: [&str; 5] = [
    SECRET,
    TOKEN,
    REFRESH,
    "tok-2222BBBBCCCCDDDDEEEEFFFF0000111122223333",
    "ref-2222PPPPOOOONNNNMMMMLLLL5555444433332222",
];

/// Where the records go: beside the binary under test, in `target/`.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_ylemctl"))
        .ancestors()
        .nth(2)
        .expect("target dir")
        .join("testing-report")
}

/// One scenario of the table.
pub struct Scenario {
    id: &'static str,
    group: &'static str,
    proves: &'static str,
    searched: usize,
    cases: usize,
}

impl Scenario {
    /// `group`: fault, interrupt, file, input or secret.
    pub fn new(id: &'static str, group: &'static str, proves: &'static str) -> Self {
        Scenario {
            id,
            group,
            proves,
            searched: 0,
            cases: 0,
        }
    }

    /// Fail if a secret is in either stream; counts the outputs searched.
    pub fn check(&mut self, o: &Out) {
        self.check_text("output", &o.all());
    }

    pub fn check_text(&mut self, what: &str, text: &str) {
        for s in SECRETS {
            assert!(!text.contains(s), "a secret reached the {what}:\n{text}");
        }
        self.searched += 1;
    }

    /// Fail if a secret is in any file under `dir` but the credential store.
    pub fn check_dir(&mut self, dir: &Path) {
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    if p != dir.join("credentials") {
                        todo.push(p);
                    }
                } else if let Ok(b) = std::fs::read(&p) {
                    let text = String::from_utf8_lossy(&b);
                    self.check_text(&p.display().to_string(), &text);
                }
            }
        }
    }

    /// Count inputs tried (bad-input scenarios).
    pub fn cases(&mut self, n: usize) {
        self.cases += n;
    }

    /// Write the record; call at the end, once every assertion passed.
    pub fn done(self) {
        let d = dir();
        let _ = std::fs::create_dir_all(&d);
        let v = serde_json::json!({
            "id": self.id,
            "group": self.group,
            "proves": self.proves,
            "searched": self.searched,
            "cases": self.cases,
            "leaks": 0,
        });
        std::fs::write(d.join(format!("{}.json", self.id)), v.to_string()).unwrap();
    }
}
