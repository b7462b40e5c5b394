//! The export tests' receivers: `tests/py/otlp_receiver.py` (OTLP/HTTP
//! traces, decoded by the official protobuf classes) and
//! `tests/py/lineage_receiver.py` (OpenLineage RunEvents, judged by the
//! official schema and client), started on loopback in a temporary folder of
//! their own, killed when dropped; and `check_lineage_lines`, the same
//! judgement of what `export openlineage` printed. Python, not Rust, so that
//! what arrives is read by the definitions' own code, not by a parser of
//! ours that could share the exporter's mistakes.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::process::{exit_within, try_wait_for, wait_for};

/// How long a receiver may take to listen: Python's start and the imports
/// (protobuf, jsonschema, openlineage) on a loaded 2-core machine.
const START: Duration = Duration::from_secs(20);

/// A script of `tests/py`, by name.
fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/py")
        .join(name)
}

/// A receiver script running on 127.0.0.1; SIGTERM, then kill, when dropped.
pub struct Receiver {
    child: Child,
    /// The port file, `out` (what it accepted), `out.requests` (every
    /// request) and its stderr: gone with the receiver.
    dir: tempfile::TempDir,
    port: u16,
}

impl Receiver {
    /// The OTLP/HTTP traces receiver with `args` (`--fail 503:2`,
    /// `--retry-after 1`, `--partial 2:too old`, `--require-header K:V`).
    pub fn otlp(args: &[&str]) -> Receiver {
        Receiver::start("otlp_receiver.py", &[], args)
    }

    /// The OpenLineage receiver (`serve`) with `args` (`--fail 503:1`,
    /// `--retry-after 1`, `--api-key KEY`).
    pub fn lineage(args: &[&str]) -> Receiver {
        Receiver::start("lineage_receiver.py", &["serve"], args)
    }

    fn start(name: &str, mode: &[&str], args: &[&str]) -> Receiver {
        let dir = tempfile::tempdir().expect("a temp dir for the receiver");
        let port_file = dir.path().join("port");
        // Its stderr to a file, not a pipe: nothing need read it while it
        // runs, and a receiver that dies at start (a missing package, a
        // schema whose hash is wrong) is shown by it.
        let stderr = File::create(dir.path().join("stderr")).unwrap();
        let child = Command::new(python())
            .arg(script(name))
            .args(mode)
            .arg("--port-file")
            .arg(&port_file)
            .arg("--out")
            .arg(dir.path().join("out"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("start the tests' python (scripts/test.sh makes its venv: YLEM_TEST_PYTHON)");
        let mut r = Receiver {
            child,
            dir,
            port: 0,
        };
        // The script writes the port to a tmp file and renames it: once the
        // file is there, the number is whole and the socket listens.
        let port = try_wait_for(START, || {
            if let Ok(Some(status)) = r.child.try_wait() {
                panic!("{name} exited at start ({status}):\n{}", r.stderr());
            }
            std::fs::read_to_string(&port_file)
                .ok()
                .and_then(|s| s.trim().parse::<u16>().ok())
        });
        r.port = port.unwrap_or_else(|| {
            panic!(
                "{name} did not listen within {START:?}; its stderr:\n{}",
                r.stderr()
            )
        });
        r
    }

    /// `http://127.0.0.1:PORT`, the base: tests append `/v1/traces` or
    /// `/api/v1/lineage` (or leave it to the CLI to).
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// What the receiver wrote to stderr so far (for a failure message).
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stderr")).unwrap_or_default()
    }

    /// What it accepted: a span each (OTLP) or an event each (OpenLineage).
    pub fn received(&self) -> Vec<Value> {
        lines(&self.dir.path().join("out"))
    }

    /// Every request it answered, refused ones too.
    pub fn requests(&self) -> Vec<Value> {
        lines(&self.dir.path().join("out.requests"))
    }

    /// `received()` once it has at least `n` lines, within `within`; past it
    /// the test fails, showing the requests answered so far.
    pub fn wait_received(&self, n: usize, within: Duration) -> Vec<Value> {
        try_wait_for(within, || {
            let got = self.received();
            (got.len() >= n).then_some(got)
        })
        .unwrap_or_else(|| {
            panic!(
                "waited {within:?} for {n} received lines, in vain: {} so far; the requests:\n{}\nstderr:\n{}",
                self.received().len(),
                self.requests()
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join("\n"),
                self.stderr()
            )
        })
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        // SIGTERM first: the script ends its server and closes its files.
        // SAFETY: kill(2) of our own child, by its pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        if exit_within(&mut self.child, Duration::from_secs(3)).is_none() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The JSON lines of `path` (none while it does not exist). Only whole
/// lines: one being written as we read has no newline yet.
fn lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let whole = match text.rfind('\n') {
        Some(i) => &text[..i],
        None => "",
    };
    whole
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{}: not a JSON line ({e}): {l}", path.display()))
        })
        .collect()
}

/// `lineage_receiver.py check` of `stdout` (a RunEvent a line, as
/// `export openlineage` prints them): `Ok(count)` when every event is valid,
/// else `Err` with the checker's output (the first problem, by line).
pub fn check_lineage_lines(stdout: &str) -> Result<usize, String> {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("events.jsonl");
    std::fs::write(&file, stdout).unwrap();
    let mut child = Command::new(python())
        .arg(script("lineage_receiver.py"))
        .arg("check")
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the tests' python (scripts/test.sh makes its venv: YLEM_TEST_PYTHON)");
    // Bounded: a hung checker fails the test instead of holding it.
    wait_for(START, "lineage_receiver.py check to end", || {
        child.try_wait().ok().flatten()
    });
    let o = child.wait_with_output().unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    if !o.status.success() {
        return Err(out);
    }
    out.trim()
        .strip_suffix(" events valid")
        .and_then(|n| n.parse().ok())
        .ok_or(out)
}

/// The python the receivers run on: `YLEM_TEST_PYTHON` (`scripts/test.sh`
/// points it at a venv with tests/py/requirements.txt), else `python3`.
fn python() -> String {
    std::env::var("YLEM_TEST_PYTHON").unwrap_or_else(|_| "python3".to_string())
}
