//! One verdict per pipeline run (issue 42), against the sandbox's ground
//! truth in both dialects: a consistency matrix (a fixed-size pipeline, a
//! `for_each` one and one that usually fails, each asked before its first
//! entry, mid-run, just after its last entry, inside and after the settle
//! time, by `runs --run` with several windows, `last-run`, `check`,
//! `status -o json` and `-o prometheus`, the exporter and `watch -o jsonl`,
//! concurrently; once judged, every one of them is compared with the
//! truth, the stream's times with `runs --run`'s text), and one regression
//! test each for the run's basis kept, "no run found", `executed_at` and
//! the order of ties.

use crate::common;

use std::thread;
use std::time::{Duration, Instant};

use common::Out;
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

const DIALECTS: [&str; 2] = ["ylem", "spec"];
/// How many times one moment is asked before a disagreement counts. Under
/// the whole suite on two cores the exporter was seen to keep saying "in
/// progress" for five tries after the others agreed (a fetch slowed by the
/// load fills its cache late): more tries, not a weaker comparison.
const TRIES: usize = 12;
/// Bounds of one followed run and of each wait on the truth.
const RUN_LIMIT: Duration = Duration::from_secs(120);

fn json(o: &Out) -> Value {
    serde_json::from_str(&o.stdout).unwrap_or(Value::Null)
}

/// Run `ylemctl` against `sb` with the config (and cache) directory `dir`.
fn run_in(sb: &Sandbox, dir: &str, args: &[&str]) -> Out {
    sb.run_with(args, &[("YLEM_CONFIG_DIR", dir)])
}

/// Wait on the truth of `run` until `done` holds (bounded).
fn until(sb: &Sandbox, run: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + RUN_LIMIT;
    loop {
        let t = sb.truth(run);
        if done(&t) || Instant::now() > deadline {
            return t;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// (what, verdict, duration in ms, ended in s) of a command that does not
/// name the run.
type Final = (String, Option<String>, Option<f64>, Option<i64>);

/// What every command says of run `run` of `p` at one moment.
#[derive(Debug, Clone, PartialEq)]
struct Said {
    /// (what, result, evidence, duration, elapsed, started, ended) of the
    /// commands that name the run.
    rows: Vec<(String, Value, Value, Value, Value, Value, Value)>,
    /// (what, whether it says a run is in progress).
    going: Vec<(String, bool)>,
    /// What the commands without the run's UUID say of the last finished
    /// run: (what, verdict, duration in ms, ended in s); a field a command
    /// lacks is None (`status -o json` has no duration, `check` no end).
    /// Compared with the truth once the run is judged.
    finals: Vec<Final>,
}

impl Said {
    /// One verdict, one evidence and one set of times among the rows, and
    /// the same "in progress" everywhere.
    /// `strict`: the evidence and times too (once every entry is in; before,
    /// two commands a moment apart may read a task more or less).
    fn agrees(&self, strict: bool) -> bool {
        let Some(first) = self.rows.first() else {
            return true;
        };
        let key = |r: &(String, Value, Value, Value, Value, Value, Value)| match strict {
            true => vec![
                r.1.clone(),
                r.2.clone(),
                r.3.clone(),
                r.4.clone(),
                r.5.clone(),
                r.6.clone(),
            ],
            false => vec![r.1.clone()],
        };
        let same = self.rows.iter().all(|r| key(r) == key(first));
        let going = first.1 == "running";
        // The exporter answers from its cache (`--cache 1s`) and the stream
        // polls each second: a moment is asked again (`TRIES`) when one is a
        // second behind, at every moment, never compared more loosely.
        same && self.going.iter().all(|(_, g)| *g == going)
    }
}

/// A plain HTTP/1.0 GET of the exporter's `/metrics` on loopback.
fn scrape(port: u16) -> String {
    crate::common::exporter::scrape_raw(&format!("127.0.0.1:{port}"), Duration::from_secs(10))
}

/// `ylemctl ARGS` against `sb` with config directory `dir`, as a child
/// whose stdout is piped.
fn spawn_in(sb: &Sandbox, dir: &str, args: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir)
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The exporter (`metrics serve`) of `p` on a free port, once it serves.
fn exporter(sb: &Sandbox, dir: &str, p: &str) -> (common::process::Killed, u16) {
    use std::io::BufRead;
    let port = common::process::free_port();
    let listen = format!("127.0.0.1:{port}");
    let mut c = spawn_in(
        sb,
        dir,
        &["metrics", "serve", "--listen", &listen, "--cache", "1s", p],
    );
    let mut line = String::new();
    std::io::BufReader::new(c.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("Serving http://"), "{line}");
    (common::process::Killed(c), port)
}

/// Ask every command at once about run `run` of `p` (`from`: a `--from`
/// just before the run's start; `port`: the exporter's).
fn ask(sb: &Sandbox, dir: &str, p: &str, run: &str, from: &str, at: &Place) -> Said {
    let port = at.port;
    let windows: Vec<Vec<String>> = vec![
        vec![],
        vec!["--since".into(), "3d".into()],
        vec!["--since".into(), "1h".into()],
        vec!["--from".into(), from.into()],
    ];
    thread::scope(|s| {
        let runs: Vec<_> = windows
            .iter()
            .map(|w| {
                s.spawn(move || {
                    let mut a = vec!["runs", p, "--run", run, "-o", "json"];
                    a.extend(w.iter().map(String::as_str));
                    (format!("runs --run {w:?}"), json(&run_in(sb, dir, &a)))
                })
            })
            .collect();
        let last = s.spawn(|| json(&run_in(sb, dir, &["last-run", "pipeline", p, "-o", "json"])));
        let check = s.spawn(|| json(&run_in(sb, dir, &["check", "pipeline", p, "-o", "json"])));
        let status = s.spawn(|| json(&run_in(sb, dir, &["status", p, "-o", "json"])));
        let prom = s.spawn(|| run_in(sb, dir, &["status", p, "-o", "prometheus"]).stdout);
        let served = s.spawn(|| scrape(port));
        let mut rows = Vec::new();
        for h in runs {
            let (what, v) = h.join().unwrap();
            rows.push(row(what, &v, v["result"].clone()));
        }
        let l = last.join().unwrap();
        let result = match (l["last_run"].as_str(), l["is_successful"].as_bool()) {
            (Some("found"), Some(true)) => Value::from("succeeded"),
            (Some("found"), Some(false)) => Value::from("failed"),
            (Some(w), _) => Value::from(w),
            _ => Value::Null,
        };
        if l["run_uuid"] == run {
            rows.push(row("last-run".into(), &l, result));
        }
        let c = check.join().unwrap();
        let st = status.join().unwrap();
        let pr = prom.join().unwrap();
        let sv = served.join().unwrap();
        let in_progress = |text: &str| {
            text.lines()
                .any(|l| l.starts_with("ylem_run_in_progress{") && l.ends_with(" 1"))
        };
        let mut going = vec![
            (
                "check".into(),
                c["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("a run is in progress"),
            ),
            ("status".into(), st["run_in_progress"] == true),
            ("status -o prometheus".into(), in_progress(&pr)),
            ("metrics serve".into(), in_progress(&sv)),
        ];
        // The stream, once it has named the run (a poll a second).
        going.extend(
            at.watch
                .going(run)
                .map(|g| ("watch -o jsonl".to_string(), g)),
        );
        let finals = vec![
            final_of_status(&st),
            final_of_check(&c),
            final_of_exposition("status -o prometheus", &pr),
            final_of_exposition("metrics serve", &sv),
        ];
        Said {
            rows,
            going,
            finals,
        }
    })
}

/// A gauge's value in an exposition of one entity.
fn gauge(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(&format!("{name}{{")))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
}

fn verdict_of(ok: Option<bool>) -> Option<String> {
    ok.map(|ok| if ok { "succeeded" } else { "failed" }.to_string())
}

fn final_of_status(v: &Value) -> Final {
    let ended = v["last_run_at"]
        .as_str()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.timestamp());
    let ok = v["last_run_successful"].as_bool();
    ("status -o json".into(), verdict_of(ok), None, ended)
}

fn final_of_check(v: &Value) -> Final {
    let ok = match v["state"].as_str() {
        Some("OK") => Some(true),
        Some("CRITICAL") => Some(false),
        _ => None,
    };
    let d = v["perfdata"]["duration"]["value"]
        .as_f64()
        .map(|s| s * 1000.0);
    ("check".into(), verdict_of(ok), d, None)
}

fn final_of_exposition(what: &str, text: &str) -> Final {
    let ok = gauge(text, "ylem_last_run_success").map(|g| g == 1.0);
    let d = gauge(text, "ylem_last_run_duration_seconds").map(|s| s * 1000.0);
    let ended = gauge(text, "ylem_last_run_timestamp_seconds").map(|s| s as i64);
    (what.into(), verdict_of(ok), d, ended)
}

fn row(
    what: String,
    v: &Value,
    result: Value,
) -> (String, Value, Value, Value, Value, Value, Value) {
    (
        what,
        result,
        v["evidence"].clone(),
        v["duration"].clone(),
        v["elapsed"].clone(),
        v["started"].clone(),
        v["ended"].clone(),
    )
}

/// Ask until one answer agrees (at most `TRIES` times: a moment may fall on
/// the edge of the grace or the settle time, and one set of commands takes a
/// second or more on a loaded machine; a window-bound basis disagrees for
/// as long as the gap between two thresholds, many seconds).
/// `all_in`: every entry is in, so every command names the run and the
/// evidence and times must agree too; before that the run may be in no log
/// yet (no row names it) and only the verdict is compared.
fn agreed(
    sb: &Sandbox,
    dir: &str,
    p: &str,
    run: &str,
    from: &str,
    at: &Place,
    all_in: bool,
) -> Result<Said, String> {
    let mut seen = Vec::new();
    for _ in 0..TRIES {
        let mut said = ask(sb, dir, p, run, from, at);
        if !all_in {
            // `runs --run` of a run not reported yet is an error (no row).
            said.rows.retain(|r| !r.1.is_null());
        }
        if said.agrees(all_in) {
            return Ok(said);
        }
        seen.push(said);
        // The exporter's answer may be its cache's second old: a try
        // asked again at once would find the same one.
        std::thread::sleep(Duration::from_millis(600));
    }
    Err(format!("no one verdict: {seen:#?}"))
}

/// Where the long-lived askers are: the exporter's port, the stream.
struct Place<'a> {
    port: u16,
    watch: &'a Watched,
}

/// Start a run of `p`, ask at each moment, and check the end against the
/// truth. Returns what went wrong.
fn matrix_of(sb: &Sandbox, dir: &str, p: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let (_served, port) = exporter(sb, dir, p);
    let watch = Watched::start(spawn_in(
        sb,
        dir,
        &["watch", p, "-o", "jsonl", "--interval", "1s"],
    ));
    let place = Place {
        port,
        watch: &watch,
    };
    let started = json(&run_in(sb, dir, &["run", "pipeline", p, "-o", "json"]));
    let run = started["run_uuid"]
        .as_str()
        .expect("a run started")
        .to_string();
    let from = (chrono::Utc::now() - chrono::Duration::minutes(1))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let mut check = |at: &str, said: Result<Said, String>| match said {
        Ok(s) => Some(s),
        Err(e) => {
            wrong.push(format!("{at}: {e}"));
            None
        }
    };
    // Before the first entry: nothing names the run yet, or all say running.
    check("before", agreed(sb, dir, p, &run, &from, &place, false));
    until(sb, &run, |t| t["reported"].as_u64() >= Some(1));
    check("mid-run", agreed(sb, dir, p, &run, &from, &place, false));
    let truth = until(sb, &run, |t| t["finished"] == true);
    check(
        "just after the last entry",
        agreed(sb, dir, p, &run, &from, &place, true),
    );
    check(
        "inside the settle time",
        agreed(sb, dir, p, &run, &from, &place, true),
    );
    // After the settle time: once the run is judged, by any command.
    let deadline = Instant::now() + RUN_LIMIT;
    while Instant::now() < deadline {
        let v = json(&run_in(sb, dir, &["runs", p, "--run", &run, "-o", "json"]));
        if v["result"] != "running" {
            break;
        }
        thread::sleep(Duration::from_millis(250));
    }
    let Some(end) = check(
        "after the settle time",
        agreed(sb, dir, p, &run, &from, &place, true),
    ) else {
        return wrong;
    };
    // Every window of `runs --run` and `last-run` named the run.
    if end.rows.len() != 5 {
        wrong.push(format!(
            "{p} {run}: not every command named the run: {end:?}"
        ));
    }
    let want = if truth["is_successful"] == true {
        "succeeded"
    } else {
        "failed"
    };
    for r in &end.rows {
        let same_start =
            r.5.as_str()
                .zip(truth["started"].as_str())
                .is_some_and(|(a, b)| {
                    let a: chrono::DateTime<chrono::Utc> = a.parse().unwrap();
                    let b: chrono::DateTime<chrono::Utc> = b.parse().unwrap();
                    (a - b).num_milliseconds().abs() <= 1
                });
        if r.1 != want || r.3 != truth["duration"] || r.4 != truth["elapsed"] || !same_start {
            wrong.push(format!("{p} {run}: {} said {r:?}, truth {truth}", r.0));
        }
    }
    // The commands that do not name the run: its verdict, duration (the
    // check's to 10 ms) and end (to the second, as the expositions have it).
    let by_runs = &end.rows[0];
    let ended = instant(&by_runs.6).map(|t| t.timestamp());
    let duration = truth["duration"].as_f64();
    for (what, v, d, e) in &end.finals {
        let near = |d: &f64| duration.is_some_and(|t| (t - d).abs() <= 5.0);
        if v.as_deref() != Some(want)
            || d.as_ref().is_some_and(|d| !near(d))
            || e.is_some() && *e != ended
        {
            wrong.push(format!(
                "{p} {run}: {what} said {v:?} {d:?} {e:?}, truth {want} {duration:?}, ended {ended:?}"
            ));
        }
    }
    // The stream told the run finished once, as the others say it.
    let finished = watch.finished(&run);
    match finished.as_slice() {
        [f] if f["verdict"] == by_runs.1
            && f["evidence"] == by_runs.2
            && f["duration"] == truth["duration"]
            && f["elapsed"] == truth["elapsed"]
            && f["started"] == by_runs.5
            && f["ended"] == by_runs.6 => {}
        other => wrong.push(format!(
            "{p} {run}: watch -o jsonl said {other:?}, runs --run {by_runs:?}"
        )),
    }
    wrong
}

/// An RFC 3339 time, as an instant (the commands write it to the second or
/// to the millisecond).
fn instant(v: &Value) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    chrono::DateTime::parse_from_rfc3339(v.as_str()?).ok()
}

/// A `watch -o jsonl`, its lines read as they come.
struct Watched {
    _child: common::process::Killed,
    lines: std::sync::mpsc::Receiver<Value>,
    /// Every run's latest word so far: whether it was told started and not
    /// yet finished.
    going: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, bool>>>,
}

impl Watched {
    fn start(mut c: std::process::Child) -> Watched {
        use std::io::BufRead;
        let out = c.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        let going = std::sync::Arc::new(std::sync::Mutex::new(std::collections::HashMap::new()));
        let g = going.clone();
        thread::spawn(move || {
            for l in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                let Ok(v) = serde_json::from_str::<Value>(&l) else {
                    continue;
                };
                if let Some(run) = v["run_uuid"].as_str()
                    && (v["event"] == "run_started" || v["event"] == "run_finished")
                {
                    let told = v["event"] == "run_started";
                    g.lock().unwrap().insert(run.to_string(), told);
                }
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Watched {
            _child: common::process::Killed(c),
            lines,
            going,
        }
    }

    /// Whether the stream says `run` is going (None: it has not named it).
    fn going(&self, run: &str) -> Option<bool> {
        self.going.lock().unwrap().get(run).copied()
    }

    /// The `run_finished` events of `run`: waited for until the first
    /// (bounded), then whatever else came a second after.
    fn finished(self, run: &str) -> Vec<Value> {
        let deadline = Instant::now() + RUN_LIMIT;
        let mut got = Vec::new();
        while Instant::now() < deadline {
            let wait = if got.is_empty() {
                Duration::from_millis(500)
            } else {
                Duration::from_secs(1)
            };
            match self.lines.recv_timeout(wait) {
                Ok(v) if v["event"] == "run_finished" && v["run_uuid"] == run => got.push(v),
                Ok(_) => {}
                Err(_) if !got.is_empty() => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(_) => break,
            }
        }
        got
    }
}

#[test]
fn every_command_and_window_says_one_verdict_for_one_run_at_each_moment() {
    thread::scope(|s| {
        let hs: Vec<_> = DIALECTS
            .iter()
            .map(|d| {
                s.spawn(move || {
                    // Two seconds between tasks: one set of commands (the
                    // exporter's 1 s cache and the stream's 1 s poll among
                    // them) then fits between two entries on a loaded
                    // machine. At 300 ms a failing run's three tasks came
                    // within one set, so no moment was still (CI, twelve
                    // tries at "before", each a task apart).
                    let sb = start_with(d, &["--task-delay", "2s"]);
                    let dir = std::env::temp_dir()
                        .join(format!("ylemctl-basis-{d}-{}", std::process::id()));
                    let dir = dir.to_str().unwrap().to_string();
                    let names = [
                        "hourly-inventory-refresh",
                        "customer-churn-alerts",
                        "payment-anomaly-check",
                    ];
                    let mut wrong = Vec::new();
                    for n in names {
                        let p = sb.pipeline_named(n);
                        wrong.extend(
                            matrix_of(&sb, &dir, &p)
                                .into_iter()
                                .map(|w| format!("{d} {n}: {w}")),
                        );
                    }
                    let _ = std::fs::remove_dir_all(&dir);
                    wrong
                })
            })
            .collect();
        let wrong: Vec<String> = hs.into_iter().flat_map(|h| h.join().unwrap()).collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    });
}

/// The ID no sandbox knows.
const UNKNOWN: &str = "12345678-1234-4234-8234-123456789abc";

#[test]
fn no_run_found_is_one_answer_in_both_dialects() {
    for d in DIALECTS {
        let sb = start_with(d, &[]);
        let o = sb.run(&["last-run", "pipeline", UNKNOWN, "-o", "json"]);
        assert_eq!(o.code, 0, "{d}: {}", o.stderr);
        assert_eq!(json(&o)["last_run"], "not_found", "{d}: {}", o.stdout);
        let o = sb.run(&["last-run", "pipeline", UNKNOWN, "--fail-on-failure"]);
        assert_eq!(o.code, 4, "{d}: {}", o.stderr);
        let o = sb.run(&["check", "pipeline", UNKNOWN, "--max-age", "25h,49h"]);
        assert_eq!(o.code, 2, "{d}: {}", o.stdout);
        assert!(
            o.stdout.starts_with("CRITICAL") && o.stdout.contains("no run found"),
            "{d}: {}",
            o.stdout
        );
        let o = sb.run(&["check", "pipeline", UNKNOWN]);
        assert_eq!(o.code, 3, "{d}: {}", o.stdout);
        assert!(o.stdout.starts_with("UNKNOWN"), "{d}: {}", o.stdout);
    }
}

/// A time as the server or the tool writes it (`YYYY-MM-DD HH:MM:SS` or
/// RFC 3339), to the second.
fn second(v: &Value) -> Option<i64> {
    let s = v.as_str()?;
    chrono::DateTime::parse_from_rfc3339(s)
        .map(|t| t.timestamp())
        .ok()
        .or_else(|| {
            chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S")
                .ok()
                .map(|t| t.and_utc().timestamp())
        })
}

#[test]
fn executed_at_is_the_servers_and_the_tools_times_are_started_and_ended() {
    for d in DIALECTS {
        let sb = start_with(d, &["--task-delay", "100ms"]);
        for (p, _) in sb.pipelines.iter().take(3) {
            let stats = sb.json(&["stats", "pipeline", p, "--since", "90d"]);
            let last = sb.json(&["last-run", "pipeline", p]);
            if last["last_run"] != "found" {
                continue;
            }
            assert_eq!(
                second(&last["executed_at"]),
                second(&stats["last_run_executed_at"]),
                "{d} {p}: last-run {last} vs stats {stats}"
            );
            let (s, e) = (second(&last["started"]), second(&last["ended"]));
            assert!(s.is_some() && e >= s, "{d} {p}: {last}");
        }
    }
}

#[test]
fn entries_of_one_second_keep_the_servers_order() {
    use common::P1;
    use common::faultserver::{self, FaultServer, route};
    let s = FaultServer::routed();
    let run = "00000000-0000-4000-8000-000000000001";
    let e = |task: &str, at: &str| {
        format!(
            r#"{{"workflow_run_uuid":"{run}","task_uuid":"{task}","task_type":"query","is_successful":true,"duration":100,"output":"","executed_at":"{at}"}}"#
        )
    };
    // Newest first, as the server writes it: b ran after a, in the same second.
    let now = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let body = format!(
        "[{},{},{}]",
        e("00000000-0000-4000-9000-00000000000c", &now),
        e("00000000-0000-4000-9000-00000000000b", &now),
        e(
            "00000000-0000-4000-9000-00000000000a",
            "2020-01-01T00:00:00Z"
        ),
    );
    s.on(route()
        .path_like(format!("/v1/stats/pipelines/{P1}/logs/*"))
        .answer(faultserver::json(200, &body)));
    let env = common::token_env(&s.base());
    let o = common::run_env(
        &[
            "runs",
            P1,
            "--run",
            run,
            "--from",
            "2019-12-31",
            "-o",
            "json",
        ],
        &env,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let tasks: Vec<String> = json(&o)["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["task_uuid"].as_str().unwrap()[35..].to_string())
        .collect();
    assert_eq!(tasks, ["a", "b", "c"], "{}", o.stdout);
}

/// The API requests of the sandbox's log since `before` (its request log).
fn log_requests(sb: &Sandbox, before: usize) -> usize {
    sb.requests()[before..]
        .iter()
        .filter(|r| r.contains("/logs/"))
        .count()
}

#[test]
fn a_runs_basis_is_kept_so_a_second_command_reads_no_more_than_before() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let dir = std::env::temp_dir().join(format!("ylemctl-kept-it-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    let p = sb.pipeline_named("customer-churn-alerts");
    let n = sb.requests().len();
    let cold = json(&run_in(
        &sb,
        &dir,
        &["last-run", "pipeline", &p, "-o", "json"],
    ));
    let cold_logs = log_requests(&sb, n);
    let n = sb.requests().len();
    let warm = json(&run_in(
        &sb,
        &dir,
        &["last-run", "pipeline", &p, "-o", "json"],
    ));
    let warm_logs = log_requests(&sb, n);
    assert_eq!(cold["evidence"], warm["evidence"]);
    // Cold: the run's log and its basis; warm: the run's log only.
    assert_eq!((cold_logs, warm_logs), (2, 1), "{cold}");
    // Another window, the same basis: `runs --run` in any window says it alike.
    let run = cold["run_uuid"].as_str().unwrap();
    for w in ["24h", "3d", "30d"] {
        let v = json(&run_in(
            &sb,
            &dir,
            &["runs", &p, "--run", run, "--since", w, "-o", "json"],
        ));
        assert_eq!(v["evidence"], cold["evidence"], "--since {w}: {v}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
