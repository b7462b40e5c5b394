//! `watch`'s board in a real terminal: the built binary in tmux (120×40)
//! against the sandbox, driven by keys and read off the screen. Every
//! entity on the board; a run started with `r`/`y` shown running, then with
//! the sandbox's verdict (a failed one with its message, in the runs view
//! and the waterfall); Enter, Esc, `/`, `l` (the run's log) and `q` work;
//! after `q`, Ctrl-C and SIGTERM the shell's terminal is back (no
//! alternate screen, the cursor shown, `stty` settings as before) and the
//! exit code is 0. Needs tmux (`.ci/run` installs it).

use std::process::Command;
use std::time::Duration;

use crate::common::login::ylem_in;
use crate::common::process::try_wait_for;
use crate::common::sandbox::{Sandbox, start_with};

/// A tmux server of the test's own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A 120×40 session running a plain shell with `env` (and PATH).
    fn start(env: &[(&str, &str)]) -> Tmux {
        let socket = format!("ylemctl-watch-tty-{}", std::process::id());
        let t = Tmux { socket };
        let mut c = Command::new("tmux");
        c.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color")
            .env("PS1", "$ ");
        for (k, v) in env {
            c.env(k, v);
        }
        let ok = c
            .args(["-L", &t.socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "120", "-y", "40", "bash --norc --noprofile"])
            .status()
            .expect("tmux is needed for this test (.ci/run installs it)");
        assert!(ok.success(), "tmux new-session failed");
        t
    }

    fn tmux(&self, args: &[&str]) -> String {
        let o = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p"])
    }

    /// Keys as tmux names them (`Enter`, `Escape`, `q`).
    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.tmux(&["send-keys", k]);
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// A line typed into the shell.
    fn line(&self, text: &str) {
        self.tmux(&["send-keys", "-l", text]);
        self.tmux(&["send-keys", "Enter"]);
    }

    /// The screen once `ok` holds of it, polled for at most `secs`.
    fn wait(&self, what: &str, secs: u64, ok: impl Fn(&str) -> bool) -> String {
        let mut last = String::new();
        try_wait_for(Duration::from_secs(secs), || {
            let s = self.screen();
            if ok(&s) {
                return Some(s);
            }
            last = s;
            None
        })
        .unwrap_or_else(|| panic!("waited {secs}s for {what}; the screen:\n{last}"))
    }

    /// `(alternate screen on, cursor shown)` in the pane.
    fn modes(&self) -> (bool, bool) {
        let m = self.tmux(&["display", "-p", "#{alternate_on} #{cursor_flag}"]);
        let mut f = m.split_whitespace().map(|v| v == "1");
        (f.next().unwrap_or(false), f.next().unwrap_or(false))
    }

    /// The pid of the shell's child (the `ylemctl` running in it).
    fn child_of_shell(&self) -> Option<u32> {
        let shell: u32 = self
            .tmux(&["display", "-p", "#{pane_pid}"])
            .trim()
            .parse()
            .ok()?;
        std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            // The parent pid is the second field after the name's ')'.
            let ppid: u32 = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            (ppid == shell).then_some(pid)
        })
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}

/// `watch` typed into the shell, its exit code echoed after it; the shell's
/// `stty` settings are kept first, to compare with after.
fn start_watch(t: &Tmux, bin: &str) {
    t.line("clear; stty -g > \"$YLEM_CONFIG_DIR/stty-before\"");
    t.line(&format!(
        "{bin} watch --interval 1s --decrypt-key-file \"$WATCH_KEY\"; echo \"EXIT=$?\""
    ));
}

/// After `watch` ended: exit 0, no alternate screen, the cursor shown, and
/// the terminal's settings as they were (raw mode undone).
fn assert_terminal_back(t: &Tmux, how: &str) {
    // The echoed line, not the typed command that contains `EXIT=$?`.
    let s = t.wait(&format!("the exit code after {how}"), 20, |s| {
        s.lines().any(|l| l.starts_with("EXIT="))
    });
    assert!(
        s.lines().any(|l| l.trim_end() == "EXIT=0"),
        "after {how}:\n{s}"
    );
    assert_eq!(
        t.modes(),
        (false, true),
        "after {how}: alternate screen, cursor"
    );
    t.line("[ \"$(stty -g)\" = \"$(cat \"$YLEM_CONFIG_DIR/stty-before\")\" ] && echo STTY-SAME || echo STTY-CHANGED");
    let s = t.wait("stty's verdict", 10, |s| {
        s.contains("STTY-SAME") || s.contains("STTY-CHANGED")
    });
    assert!(s.contains("STTY-SAME"), "after {how}:\n{s}");
}

/// Start runs of the flaky pipeline from the board (`r`, then `y`) until one
/// fails (bounded); each shown running, then with the sandbox's verdict.
/// Returns the failed run's UUID.
fn start_until_failed(t: &Tmux, sb: &Sandbox) -> String {
    for _ in 0..5 {
        t.keys(&["r"]);
        t.wait("the y/N question", 10, |s| {
            s.contains("start a run of pipeline p1? [y/N]")
        });
        t.keys(&["y"]);
        let s = t.wait("the started run", 30, |s| s.contains("started p1: run "));
        let run: String = s
            .split("started p1: run ")
            .nth(1)
            .unwrap()
            .chars()
            .take(36)
            .collect();
        // Its tasks take seconds (--task-delay): the board sees it going.
        t.wait("the run shown running", 60, |s| {
            s.lines().any(|l| l.contains(" p1 ") && l.contains('▶'))
        });
        let failed = sb.finished(&run, Duration::from_secs(120))["is_successful"] == false;
        let verdict = if failed { "failed" } else { "succeeded" };
        // Its verdict on the board: the last run's result, no run going.
        t.wait(&format!("{verdict} on the board"), 30, |s| {
            s.lines().any(|l| {
                l.contains(" p1 ") && l.contains(&format!(" {verdict} ")) && !l.contains('▶')
            })
        });
        if failed {
            return run;
        }
    }
    panic!("no failed run of the flaky pipeline in 5 starts");
}

#[test]
fn the_board_in_a_real_terminal() {
    let sb = start_with("spec", &["--task-delay", "1s"]);
    let dir = std::env::temp_dir().join(format!("ylemctl-watch-tty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let key = dir.join("output.key");
    std::fs::write(&key, &sb.key).unwrap();
    let dir_s = dir.to_str().unwrap();
    // A stored login (file store): the watches and `auth token` below
    // share its cached token; the secret is in no environment.
    let o = ylem_in(
        &dir,
        &[
            "login",
            "--base-url",
            &sb.base,
            "--client-id",
            &sb.client_id,
        ]
        .into_iter()
        .chain(["--client-secret-stdin", "--store", "file"])
        .collect::<Vec<_>>(),
        Some(&format!("{}\n", sb.secret)),
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // The key by watch's own flag (issue 44: once only the variable).
    let env = [
        ("YLEM_CONFIG_DIR", dir_s),
        ("WATCH_KEY", key.to_str().unwrap()),
    ];
    // Aliases p0.. and w0..: `watch` with no ID watches them all.
    let mut names = Vec::new();
    let ids = sb.pipelines.iter().map(|p| ("pipeline", &p.0, "p"));
    let ids = ids.chain(sb.workflows.iter().map(|w| ("workflow", w, "w")));
    for (kind, id, letter) in ids {
        let name = format!(
            "{letter}{}",
            names
                .iter()
                .filter(|n: &&String| n.starts_with(letter))
                .count()
        );
        let o = ylem_in(
            &dir,
            &["alias", "set", &name, &format!("{kind}:{id}")],
            None,
            &[],
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        names.push(name);
    }
    let bin = env!("CARGO_BIN_EXE_ylemctl");
    let t = Tmux::start(&env);
    let mut seen = String::new();
    start_watch(&t, bin);

    // Every entity, each row read (a health word), and the footer.
    let n = names.len();
    let s = t.wait("every entity on the board", 60, |s| {
        s.contains(&format!("ylemctl watch: {n} entities"))
            && s.contains(" ago (")
            && names
                .iter()
                .all(|a| s.lines().any(|l| l.contains(&format!(" {a} "))))
    });
    assert_eq!(
        t.modes(),
        (true, false),
        "on the board: alternate screen, cursor hidden"
    );
    seen.push_str(&s);

    // `/` keeps the flaky pipeline's row alone (and selected).
    t.keys(&["/", "p", "1", "Enter"]);
    seen.push_str(&t.wait("the filter", 10, |s| s.contains("1 matching \"p1\"")));
    let run = start_until_failed(&t, &sb);
    // The board's failure column says what failed, the message first:
    // the task's type (p1's tasks have no alias), never its UUID.
    let truth = sb.truth(&run);
    let failed = truth["failed"][0]["task_uuid"]
        .as_str()
        .unwrap()
        .to_string();
    let task_type = sb.banner["pipelines"][1]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["uuid"] == failed.as_str())
        .map(|t| t["task_type"].as_str().unwrap().to_string())
        .unwrap();
    let s = t.wait("the failure on p1's row", 30, |s| {
        s.lines()
            .any(|l| l.contains(" p1 ") && l.contains(&task_type[..task_type.len().min(8)]))
    });
    let row = s.lines().find(|l| l.contains(" p1 ")).unwrap();
    assert!(!row.contains(&failed[..8]), "a task UUID on the row: {row}");
    assert!(
        s.contains(&format!("task {failed}")),
        "the detail line names the task's UUID:\n{s}"
    );

    // Enter: its runs, the failed one first; Enter again: its waterfall
    // with the failed task's message (decoded with the key).
    let truth = sb.truth(&run);
    let task = truth["failed"][0]["task_uuid"]
        .as_str()
        .unwrap()
        .to_string();
    let msg = truth["failed"][0]["errors"][0]["Message"]
        .as_str()
        .unwrap()
        .to_string();
    t.keys(&["Enter"]);
    let s = t.wait("the runs view", 30, |s| {
        s.contains("runs of pipeline p1")
            && s.lines()
                .nth(2)
                .is_some_and(|l| l.contains(&run) && l.contains("failed"))
    });
    seen.push_str(&s);
    t.keys(&["Enter"]);
    let first: String = msg.chars().take(40).collect();
    let s = t.wait("the waterfall", 30, |s| {
        s.contains(&format!("run {run} of p1"))
            && s.contains('█')
            && s.lines()
                .any(|l| l.starts_with(&format!("✗ {task}: ")) && l.contains(&first))
    });
    seen.push_str(&s);
    // `l`: the run's log, its failed task's entry among the lines; Esc
    // stops following and shows the waterfall again.
    t.keys(&["l"]);
    let s = t.wait("the run's log", 30, |s| {
        s.contains(&format!("log of run {run} of p1"))
            && s.lines().skip(1).any(|l| l.contains(&task))
    });
    seen.push_str(&s);
    // The run had ended: its verdict is said at once, and its log is not
    // read again (before, the whole day was read every 2 s until Esc): a
    // followed log's poll (2 s) and a second more pass without a read.
    seen.push_str(&t.wait("the followed run's verdict", 30, |s| {
        s.contains("finished: failed")
    }));
    let p1 = sb.pipelines[1].0.to_string();
    let before = day_reads(&sb.requests(), &p1);
    assert!(before >= 1, "the runs view read the day");
    std::thread::sleep(Duration::from_secs(3));
    let after = day_reads(&sb.requests(), &p1);
    assert!(
        after <= before,
        "the log of a finished run was read again: {before} day-wide reads, then {after}"
    );
    t.keys(&["Escape"]);
    t.wait("the waterfall again", 10, |s| {
        s.contains(&format!("run {run} of p1")) && s.contains('█')
    });
    // Esc, Esc: the board again; `q`: out, the terminal back.
    t.keys(&["Escape"]);
    t.wait("the runs view again", 10, |s| {
        s.contains("runs of pipeline p1")
    });
    t.keys(&["Escape"]);
    seen.push_str(&t.wait("the board again", 10, |s| s.contains("ylemctl watch:")));
    t.keys(&["q"]);
    assert_terminal_back(&t, "q");

    // Again, ended by Ctrl-C (a key in raw mode, not a signal).
    start_watch(&t, bin);
    seen.push_str(&t.wait("the board", 60, |s| s.contains(" ago (")));
    t.keys(&["C-c"]);
    assert_terminal_back(&t, "Ctrl-C");

    // Again, ended by SIGTERM.
    start_watch(&t, bin);
    seen.push_str(&t.wait("the board", 60, |s| s.contains(" ago (")));
    let pid = t.child_of_shell().expect("the watch's pid");
    let ok = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    assert_terminal_back(&t, "SIGTERM");

    // -v on the board's terminal: refused (its lines would be drawn over
    // the board), with where to send them instead.
    t.line("clear");
    t.line(&format!("{bin} -v watch --interval 1s; echo \"EXIT=$?\""));
    let s = t.wait("-v refused", 20, |s| {
        s.lines().any(|l| l.starts_with("EXIT="))
    });
    assert!(s.contains("EXIT=2"), "{s}");
    assert!(s.contains("2> watch.log") && s.contains("-o jsonl"), "{s}");
    seen.push_str(&s);
    seen.push_str(&t.tmux(&["capture-pane", "-p", "-S", "-"]));

    // No secret on any screen: the client secret, the output key, and the
    // access token the watches used (cached in the config directory, which
    // `auth token` hands out).
    let o = ylem_in(&dir, &["auth", "token"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let token = o.stdout.trim();
    assert!(token.len() >= 16, "{token}");
    assert!(!seen.contains(token), "the access token reached the screen");
    assert!(
        !seen.contains(&sb.secret),
        "the client secret reached the screen"
    );
    assert!(
        !seen.contains(sb.key.trim()),
        "the output key reached the screen"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many reads of pipeline `id`'s log spanned most of a day (the runs
/// view's, the waterfall's, a followed log's first read) in `requests`.
fn day_reads(requests: &[String], id: &str) -> usize {
    let day = chrono::Duration::hours(23);
    requests
        .iter()
        .filter_map(|r| r.split_once(&format!("/v1/stats/pipelines/{id}/logs/")))
        .filter(|(_, w)| {
            let w = w.split('?').next().unwrap_or_default().replace("%20", " ");
            let mut ends = w.split('/').map(ylem_client::time::parse_server_time);
            match (ends.next().flatten(), ends.next().flatten()) {
                (Some(from), Some(to)) => to - from >= day,
                _ => false,
            }
        })
        .count()
}
