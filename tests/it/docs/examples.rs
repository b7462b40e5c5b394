//! The guide's examples as tests: every ```console block of README.md and
//! docs/*.md is run against a sandbox of seed 1 and its output compared
//! with what the page shows, so a change that breaks an example fails here.
//!
//! A block holds commands (`$ ` lines, `\` at a line's end continues it),
//! an optional `? N` line after a command (its exit code; 0 otherwise) and
//! the output expected from stdout and stderr together. `[..]` in a line
//! matches any text (times, ages, ports), a line `...` any number of lines.
//! A page picks the sandbox's dialect with `<!-- examples: dialect=ylem -->`
//! (default `spec`, what `ylemctl sandbox` serves). A block right after a
//! line `<!-- examples: terminal 100x40 -->` runs each command (a plain
//! `ylemctl ...` line, `$NAME`s expanded) with stdout on a terminal of that
//! size and `NO_COLOR` set, and expects stdout, then stderr. The commands run with
//! `sh` in a directory of the page's own, one after another, with
//! `YLEM_BASE_URL`, `YLEM_CLIENT_ID`, `YLEM_CLIENT_SECRET` set, `P`, `P2`
//! naming the first two pipelines, `W` the first workflow and `KEY_FILE`
//! the file holding the sandbox's output key.
//!
//! A runner of our own rather than trycmd: the pages need shell (pipes,
//! `$P`, `export`), one sandbox started inside the test with its port and
//! credentials passed by environment, and commands in order on one page
//! sharing a config directory (an alias set above is used below); it also
//! brings no new dependency to build.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{pty, sandbox};

/// One command of a page and what it should print.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    code: i32,
    expected: Vec<String>,
    /// On a terminal of (columns, rows), or through `sh` with a pipe.
    terminal: Option<(u16, u16)>,
}

/// The `console` blocks' examples of one Markdown text.
fn parse(text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let (mut terminal, mut marked) = (None, None);
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        if !in_block {
            in_block = line.trim_start() == "```console";
            if in_block {
                terminal = marked.take();
            }
            marked = line
                .strip_prefix("<!-- examples: terminal ")
                .and_then(|l| l.strip_suffix(" -->"))
                .and_then(|l| l.split_once('x'))
                .map(|(c, r)| (c.parse().unwrap(), r.parse().unwrap()));
            continue;
        }
        if line.trim_start().starts_with("```") {
            in_block = false;
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            let mut command = cmd.to_string();
            while command.ends_with('\\') {
                let Some((_, next)) = lines.next() else { break };
                command.push('\n');
                command.push_str(next);
            }
            let mut code = 0;
            if let Some((_, next)) = lines.peek()
                && let Some(c) = next.strip_prefix("? ")
            {
                code = c.trim().parse().expect("`? N`: an exit code");
                lines.next();
            }
            out.push(Example {
                line: n + 1,
                command,
                code,
                expected: Vec::new(),
                terminal,
            });
        } else if let Some(last) = out.last_mut() {
            last.expected.push(line.trim_end().to_string());
        } else {
            panic!("line {}: output before any `$ ` command", n + 1);
        }
    }
    out
}

/// Does one line match its pattern (`[..]`: any text)?
fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Do the lines match the patterns (a `...` line: any number of lines)?
fn lines_match(pattern: &[String], actual: &[String]) -> bool {
    match pattern.split_first() {
        None => actual.is_empty(),
        Some((p, rest)) if p == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((p, rest)) => {
            !actual.is_empty() && line_matches(p, &actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

/// Run one command in `dir` with `env`, at most two minutes: exit code and
/// stdout with stderr, as a terminal would show them together.
fn run(command: &str, dir: &Path, env: &[(String, String)]) -> (i32, Vec<String>) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ylemctl"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .args(["-c", &format!("exec 2>&1\n{command}")])
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .env("HOME", dir)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let code = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code().unwrap_or(-1);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break -2;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = reader.join().unwrap();
    (
        code,
        text.lines().map(|l| l.trim_end().to_string()).collect(),
    )
}

/// Run a plain `ylemctl ARGS` line on a terminal: exit code, then stdout
/// without escape sequences, then stderr.
fn run_on_terminal(
    command: &str,
    (cols, rows): (u16, u16),
    env: &[(String, String)],
) -> (i32, Vec<String>) {
    let expand = |w: &str| match w.strip_prefix('$') {
        Some(name) => env
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
        None => w.to_string(),
    };
    let words: Vec<String> = command.split_whitespace().map(expand).collect();
    assert_eq!(
        words[0], "ylemctl",
        "a terminal example runs ylemctl alone: {command}"
    );
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let mut e: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    e.push(("NO_COLOR", "1"));
    let o = pty::run(&args, &e, cols, rows);
    let mut plain = String::new();
    let mut chars = o.stdout.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|d| d.is_ascii_alphabetic());
        } else {
            plain.push(c);
        }
    }
    let lines = plain.lines().chain(o.stderr.lines());
    (o.code, lines.map(|l| l.trim_end().to_string()).collect())
}

/// The pages whose examples are run: README.md and docs/*.md.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    v.extend(docs);
    v
}

/// Run one page's examples against a sandbox of its own; mismatches as text.
fn check_page(page: &Path, examples: &[Example], dialect: &str) -> Vec<String> {
    let sb = sandbox::start_with(dialect, &["--task-delay", "100ms"]);
    let dir = std::env::temp_dir().join(format!(
        "ylemctl-examples-{}-{}",
        std::process::id(),
        page.file_stem().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let key_file = dir.join("output.key");
    std::fs::write(&key_file, &sb.key).unwrap();
    let env: Vec<(String, String)> = [
        ("YLEM_BASE_URL", sb.base.clone()),
        ("YLEM_CLIENT_ID", sb.client_id.clone()),
        ("YLEM_CLIENT_SECRET", sb.secret.clone()),
        ("YLEM_CONFIG_DIR", dir.join("config").display().to_string()),
        ("P", sb.pipelines[0].0.clone()),
        ("P2", sb.pipelines[1].0.clone()),
        ("W", sb.workflows[0].clone()),
        ("KEY_FILE", key_file.display().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let mut failures = Vec::new();
    for ex in examples {
        let (code, actual) = match ex.terminal {
            Some(size) => run_on_terminal(&ex.command, size, &env),
            None => run(&ex.command, &dir, &env),
        };
        if code != ex.code || !lines_match(&ex.expected, &actual) {
            failures.push(format!(
                "{}:{}: $ {}\n  exit {code} (expected {})\n--- expected\n{}\n--- got\n{}\n",
                page.display(),
                ex.line,
                ex.command,
                ex.code,
                ex.expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures
}

#[test]
fn every_example_of_the_readme_and_the_guide_runs_as_shown() {
    let mut failures = Vec::new();
    let mut total = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let examples = parse(&text);
        if examples.is_empty() {
            continue;
        }
        total += examples.len();
        let dialect = if text.contains("<!-- examples: dialect=ylem -->") {
            "ylem"
        } else {
            "spec"
        };
        failures.extend(check_page(&page, &examples, dialect));
    }
    eprintln!("examples run: {total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The pages hold dozens; none found means the parser lost them.
    assert!(total >= 30, "only {total} examples found");
}

#[test]
fn the_example_matcher_elides_only_what_it_is_told() {
    let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(line_matches("age [..] ago", "age 2h 37m ago"));
    assert!(!line_matches("age [..] ago", "age 2h 37m"));
    assert!(!line_matches("a", "ab"));
    assert!(lines_match(
        &l(&["a", "...", "z"]),
        &l(&["a", "b", "c", "z"])
    ));
    assert!(lines_match(&l(&["a", "...", "z"]), &l(&["a", "z"])));
    assert!(!lines_match(&l(&["a", "z"]), &l(&["a", "b", "z"])));
    assert!(!lines_match(&l(&["a"]), &l(&["a", "b"])));
    let ex = parse("```console\n$ a \\\n  b\n? 7\nout\n```\n```sh\n$ not run\n```\n");
    assert_eq!(ex.len(), 1);
    assert_eq!(
        (ex[0].command.as_str(), ex[0].code),
        ("a \\\n  b", 7),
        "{ex:?}"
    );
    assert_eq!(ex[0].expected, l(&["out"]));
    assert_eq!(ex[0].terminal, None);
    let ex = parse(
        "<!-- examples: terminal 100x40 -->\n```console\n$ ylemctl a\n```\n```console\n$ b\n```\n",
    );
    assert_eq!((ex[0].terminal, ex[1].terminal), (Some((100, 40)), None));
}
