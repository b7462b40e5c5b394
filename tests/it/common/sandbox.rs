//! A `ylemctl sandbox` process for end-to-end tests, read from its JSON
//! banner (`-o json`), and the waits on what it knows (a run's truth, its
//! request log).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::process::wait_for;
use super::{Out, ylem};
use serde_json::Value;

/// A sandbox process, killed when dropped.
pub struct Sandbox {
    child: Child,
    pub base: String,
    pub client_id: String,
    pub secret: String,
    pub key: String,
    pub pipelines: Vec<(String, Vec<String>)>,
    pub workflows: Vec<String>,
    /// The whole JSON banner (pipelines' notes, special pipelines...).
    pub banner: Value,
    /// The banner's pipeline of another organisation.
    pub other_org: Option<String>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(dialect: &str) -> Sandbox {
    start_with(dialect, &["--task-delay", "100ms"])
}

/// Start with extra `ylemctl sandbox` flags.
pub fn start_with(dialect: &str, extra: &[&str]) -> Sandbox {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .args([
            "sandbox",
            "--listen",
            "127.0.0.1:0",
            "--dialect",
            dialect,
            "-o",
            "json",
        ])
        .args(extra)
        .env_clear()
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // `-o json`: the banner is one JSON object on the first line.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let b: Value = serde_json::from_str(&first).unwrap_or_else(|e| panic!("banner: {e}: {first}"));
    let text = |k: &str| {
        b[k].as_str()
            .unwrap_or_else(|| panic!("banner: {k}"))
            .to_string()
    };
    let (base, client_id, secret, key) = (
        text("base_url"),
        text("client_id"),
        text("client_secret"),
        text("output_key"),
    );
    let uuids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|t| t["uuid"].as_str().unwrap().to_string())
            .collect()
    };
    let pipelines: Vec<(String, Vec<String>)> = b["pipelines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["uuid"].as_str().unwrap().to_string(), uuids(&p["tasks"])))
        .collect();
    let workflows = uuids(&b["workflows"]);
    let other_org = b["special_pipelines"].as_array().and_then(|l| {
        l.iter()
            .find(|p| p["label"] == "other-organisation")
            .and_then(|p| p["uuid"].as_str().map(str::to_string))
    });
    assert!(base.starts_with("http://127.0.0.1:"), "banner: base URL");
    assert!(pipelines.len() >= 2 && !workflows.is_empty());
    Sandbox {
        child,
        base,
        client_id,
        secret,
        key,
        pipelines,
        workflows,
        banner: b,
        other_org,
    }
}

impl Sandbox {
    pub fn run(&self, args: &[&str]) -> Out {
        self.run_with(args, &[])
    }

    /// Run with extra environment variables.
    pub fn run_with(&self, args: &[&str], more: &[(&str, &str)]) -> Out {
        let mut env = vec![
            ("YLEM_BASE_URL", self.base.as_str()),
            ("YLEM_CLIENT_ID", self.client_id.as_str()),
            ("YLEM_CLIENT_SECRET", self.secret.as_str()),
        ];
        env.extend_from_slice(more);
        ylem(args, &env)
    }

    pub fn json(&self, args: &[&str]) -> Value {
        let mut a = args.to_vec();
        a.extend(["-o", "json"]);
        let o = self.run(&a);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", o.stdout))
    }
}

impl Sandbox {
    /// Send SIGINT (Ctrl-C) and wait for the exit code, at most 10 s.
    pub fn interrupt(&mut self) -> Option<i32> {
        self.signal("-INT")
    }

    /// Send a signal (`-INT`, `-TERM`) and wait for the exit code, at most
    /// 15 s (the stop waits up to 10 s for requests in flight).
    pub fn signal(&mut self, sig: &str) -> Option<i32> {
        let pid = self.child.id().to_string();
        Command::new("kill").args([sig, &pid]).status().ok()?;
        super::process::exit_within(&mut self.child, Duration::from_secs(15))?.code()
    }
}

impl Sandbox {
    /// The UUID of the banner's pipeline named `name`.
    pub fn pipeline_named(&self, name: &str) -> String {
        self.banner["pipelines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .and_then(|p| p["uuid"].as_str())
            .unwrap_or_else(|| panic!("no pipeline {name}"))
            .to_string()
    }

    /// A plain GET of the sandbox-only truth path (no token, no faults):
    /// the run's real size, outcome and whether it has finished.
    pub fn truth(&self, run: &str) -> Value {
        self.get(&format!("/_sandbox/runs/{run}"))
    }

    /// The truth of `run` once it says the run finished, within `limit`.
    pub fn finished(&self, run: &str, limit: Duration) -> Value {
        wait_for(limit, &format!("run {run} to finish"), || {
            let t = self.truth(run);
            (t["finished"] == true).then_some(t)
        })
    }

    /// Sleep until `quiet` has passed since the last entry `run` has
    /// reported (at once if it has): for a rule that counts a run only
    /// after a time without a new entry.
    pub fn after_last_entry(&self, run: &str, quiet: Duration) {
        let t = self.truth(run);
        let last = t["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| {
                e["executed_at"]
                    .as_str()?
                    .parse::<chrono::DateTime<chrono::Utc>>()
                    .ok()
            })
            .max()
            .unwrap_or_else(|| panic!("run {run} has no entry: {t}"));
        let wait = (last + quiet - chrono::Utc::now())
            .to_std()
            .unwrap_or_default();
        std::thread::sleep(wait);
    }

    /// The sandbox's request log once `ok` holds of it, within `limit`.
    pub fn wait_requests(
        &self,
        limit: Duration,
        what: &str,
        mut ok: impl FnMut(&[String]) -> bool,
    ) -> Vec<String> {
        wait_for(limit, what, || {
            let r = self.requests();
            ok(&r).then_some(r)
        })
    }

    /// `ylemctl ARGS` against this sandbox as a child with piped output,
    /// its config directory named by `tag` (for the tests that signal or
    /// read it while it runs).
    pub fn spawn(&self, tag: &str, args: &[&str]) -> std::process::Child {
        use std::process::{Command, Stdio};
        let dir = std::env::temp_dir().join(format!("ylemctl-{tag}-{}", std::process::id()));
        Command::new(env!("CARGO_BIN_EXE_ylemctl"))
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("YLEM_CONFIG_DIR", dir)
            .env("YLEM_BASE_URL", &self.base)
            .env("YLEM_CLIENT_ID", &self.client_id)
            .env("YLEM_CLIENT_SECRET", &self.secret)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// The latest API requests the sandbox saw, oldest first, as
    /// `METHOD /path` (`GET /_sandbox/requests`).
    pub fn requests(&self) -> Vec<String> {
        serde_json::from_value(self.get("/_sandbox/requests")).unwrap()
    }

    /// A plain GET of a sandbox-only path (no token, no faults): its JSON.
    pub fn get(&self, path: &str) -> Value {
        use std::io::{Read, Write};
        let host = self.base.trim_start_matches("http://");
        let mut s = std::net::TcpStream::connect(host).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = String::new();
        s.read_to_string(&mut raw).unwrap();
        let body = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {raw}"))
    }
}
