//! `status` against the sandbox: healthy, failing, never-run and unknown IDs
//! on one board; aliases with and without a kind; `-o prometheus` checked
//! by the real `promtool`, and `--output-file` written whole or not at all.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::sandbox::{Sandbox, start};

const NEVER: &str = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

fn status_json(sb: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> Vec<Value> {
    let mut a = vec!["status"];
    a.extend_from_slice(args);
    a.extend(["-o", "json"]);
    let o = sb.run_with(&a, env);
    assert_eq!(o.code, 0, "{a:?}: {}", o.stderr);
    serde_json::from_str::<Value>(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", o.stdout))
        .as_array()
        .unwrap()
        .clone()
}

/// The real `promtool check metrics` on `text`: its exit code and output.
pub fn promtool(text: &str) -> (i32, String) {
    let mut c = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool (Debian package prometheus) is needed for the metrics tests");
    c.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let o = c.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), said)
}

/// One healthy pipeline (a run just succeeded), one that failed, one that
/// never ran and one the service does not serve (a workflow on the open
/// server): a row each, each as `last-run` sees it; the board is whole.
#[test]
fn a_mixed_board_shows_every_row() {
    let sb = start("ylem");
    let (ok, tasks) = &sb.pipelines[0];
    let n = tasks.len().to_string();
    let r = sb.run(&[
        "run",
        "pipeline",
        ok,
        "--wait",
        "--expect-tasks",
        &n,
        "--poll",
        "200ms",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "the healthy pipeline's run: {}", r.stderr);
    let run: Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    // The one model's grace: a run with its history's tasks counts after a
    // second without a new one (run --wait's was one 200 ms poll), from
    // its last entry; a fifth more, past the rule's edge.
    let run = run["workflow_run_uuid"]
        .as_str()
        .unwrap_or_else(|| panic!("{run}"));
    sb.after_last_entry(run, std::time::Duration::from_millis(1200));
    let failing = &sb.pipelines[1].0;
    let unknown = format!("workflow:{}", sb.workflows[0]);
    let rows = status_json(&sb, &[ok, failing, NEVER, &unknown], &[]);
    assert_eq!(rows.len(), 4, "{rows:?}");
    // Machine rows keep the order given.
    let uuids: Vec<&str> = rows.iter().map(|r| r["uuid"].as_str().unwrap()).collect();
    assert_eq!(uuids, [ok.as_str(), failing, NEVER, &sb.workflows[0]]);
    for row in &rows[..2] {
        let id = row["uuid"].as_str().unwrap();
        let last = sb.json(&["last-run", "pipeline", id]);
        let word = row["status"].as_str().unwrap();
        if last["is_successful"] == false {
            assert_eq!(word, "failed", "{row}");
        } else if row["failures_24h"].as_i64().unwrap() > 0 {
            assert_eq!(word, "degraded", "{row}");
        } else {
            assert_eq!(word, "ok", "{row}");
        }
        assert_eq!(row["last_run_successful"], last["is_successful"]);
        assert_eq!(row["failures_7d"].as_array().unwrap().len(), 7);
    }
    assert_eq!(rows[0]["last_run_successful"], true, "{}", rows[0]);
    assert_eq!(rows[2]["status"], "never");
    assert_eq!(rows[2]["last_run_at"], Value::Null);
    assert_eq!(rows[3]["status"], "unknown");
    assert_eq!(rows[3]["kind"], "workflow");
    assert!(
        rows[3]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("404"),
        "{}",
        rows[3]
    );

    // The table: worst first, the unknown row's reason on stderr.
    let o = sb.run(&["status", ok, failing, NEVER, &unknown]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains(&sb.workflows[0]), "{}", o.stderr);
    let order: Vec<&str> = o
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    let rank = |w: &str| {
        ["failed", "unknown", "degraded", "never", "ok"]
            .iter()
            .position(|x| *x == w)
    };
    let ranks: Vec<_> = order.iter().map(|w| rank(w).expect(w)).collect();
    assert!(
        ranks.windows(2).all(|w| w[0] <= w[1]),
        "worst first: {}",
        o.stdout
    );
    assert_eq!(order.len(), 4);
    // csv and jsonl keep the same rows.
    let csv = sb.run(&["status", ok, NEVER, "-o", "csv"]);
    assert_eq!(csv.stdout.lines().count(), 3, "{}", csv.stdout);
    assert!(csv.stdout.starts_with("name,kind,uuid,status,"));
}

#[test]
fn aliases_are_the_default_board_and_keep_their_kind() {
    let sb = start("spec");
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().to_str().unwrap();
    let env = [("YLEM_CONFIG_DIR", cfg)];
    let p0 = &sb.pipelines[0].0;
    let wf = format!("workflow:{}", sb.workflows[0]);
    for (name, value) in [("orders", p0.as_str()), ("nightly", wf.as_str())] {
        let o = sb.run_with(&["alias", "set", name, value], &env);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let rows = status_json(&sb, &[], &env);
    let kinds: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [("nightly", "workflow"), ("orders", "pipeline")]);
    // A prefix on the argument wins; the alias still names the row.
    let rows = status_json(&sb, &["orders", "task:orders"], &env);
    assert_eq!(rows[1]["kind"], "task");
    assert_eq!(rows[1]["name"], "orders");
    // A pipeline is no task here: the spec's 404 ("no runs found") reads
    // as the real server's answer does, no run found (issue 42).
    assert_eq!(rows[1]["status"], "never", "a pipeline is no task here");
    let o = sb.run_with(&["status", "task:orders"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stderr.contains("error:"), "{}", o.stderr);
    // Older commands still take the alias as a plain ID.
    let o = sb.run_with(&["last-run", "workflow", "nightly"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn bad_input_is_a_usage_error() {
    let sb = start("spec");
    let o = sb.run(&["status", "no-such-alias"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("no-such-alias"), "{}", o.stderr);
    let o = sb.run(&["status"]);
    assert_eq!(o.code, 2, "no IDs and no aliases: {}", o.stderr);
    let o = sb.run(&["logs", &sb.pipelines[0].0, "-o", "prometheus"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("-o prometheus is for"), "{}", o.stderr);
    assert!(o.stdout.is_empty());
}

#[test]
fn prometheus_outputs_pass_promtool() {
    let sb = start("ylem");
    let p0 = sb.pipelines[0].0.as_str();
    let p1 = sb.pipelines[1].0.as_str();
    let wf = format!("workflow:{}", sb.workflows[0]);
    let cases: Vec<Vec<&str>> = vec![
        vec!["status", p0, p1, NEVER, &wf],
        vec!["stats", "pipeline", p0, NEVER, "--since", "7d"],
        vec!["last-run", "pipeline", p0, NEVER],
        vec!["check", "pipeline", p1, "--max-age", "25h,49h"],
        vec!["last-run", "workflow", &sb.workflows[0]],
    ];
    for mut args in cases {
        args.extend(["-o", "prometheus"]);
        let o = sb.run(&args);
        assert_eq!(o.code, 0, "{args:?}: a refused ID is data: {}", o.stderr);
        let (code, said) = promtool(&o.stdout);
        assert_eq!(code, 0, "{args:?}: promtool: {said}\n{}", o.stdout);
        assert!(o.stdout.contains("# TYPE ylem_up gauge"), "{}", o.stdout);
    }
    let o = sb.run(&["status", p0, &wf, "-o", "prometheus"]);
    let up0 = format!(
        "ylem_up{{kind=\"workflow\",uuid=\"{}\"}} 0",
        sb.workflows[0]
    );
    assert!(o.stdout.contains(&up0), "{}", o.stdout);
    assert!(
        o.stdout
            .contains(&format!("ylem_up{{kind=\"pipeline\",uuid=\"{p0}\"}} 1"))
    );
    let o = sb.run(&["check", "pipeline", p1, "-o", "prometheus"]);
    assert!(
        o.stdout.contains("# TYPE ylem_check_status gauge"),
        "{}",
        o.stdout
    );
}

#[test]
fn output_file_is_written_whole_or_not_at_all() {
    let sb = start("spec");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ylem.prom");
    let p = path.to_str().unwrap();
    let p0 = sb.pipelines[0].0.as_str();
    let o = sb.run(&["status", p0, "-o", "prometheus", "--output-file", p]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(promtool(&text).0, 0, "{text}");
    let names = |d: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(names(dir.path()), ["ylem.prom"], "no temporary file left");

    // A directory that cannot be written: a clear error, nothing left.
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let target = ro.join("ylem.prom");
    let t = target.to_str().unwrap();
    let run = |t: &str| {
        sb.run(&[
            "last-run",
            "pipeline",
            p0,
            "-o",
            "prometheus",
            "--output-file",
            t,
        ])
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        // root writes anywhere: then only the missing directory is checked.
        if std::fs::File::create(ro.join("probe")).is_err() {
            let o = run(t);
            assert_eq!(o.code, 2, "{}", o.stderr);
            assert!(
                o.stderr.contains("cannot write --output-file"),
                "{}",
                o.stderr
            );
            assert!(names(&ro).is_empty(), "{:?}", names(&ro));
        }
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let missing = dir.path().join("missing").join("ylem.prom");
    let o = run(missing.to_str().unwrap());
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("cannot write --output-file"),
        "{}",
        o.stderr
    );
    assert!(!missing.exists());
    // Without -o prometheus the flag is a usage error.
    let o = sb.run(&["status", p0, "--output-file", p]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

/// A service that is down fails every ID of the board alike (issue 36):
/// the table still names each ID, with the kind of its error; the error is
/// said once, naming every ID it hit, with one hint, after the board; the
/// exit code is the error's (6). No token reaches any output.
#[test]
fn a_board_with_every_id_failing_names_them_and_says_the_error_once() {
    use crate::common::process::free_port;
    use crate::common::{CLIENT_ID, SECRET, TOKEN, ylem};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let down = format!("http://127.0.0.1:{}", free_port());
    let ids = [
        "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a51",
        "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a52",
        "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a53",
    ];
    for (name, id) in [("orders", ids[0]), ("nightly", ids[1])] {
        let o = ylem(&["alias", "set", name, id], &[("YLEM_CONFIG_DIR", d)]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let token = [
        ("YLEM_CONFIG_DIR", d),
        ("YLEM_BASE_URL", down.as_str()),
        ("YLEM_TOKEN", TOKEN),
    ];
    let client = [
        ("YLEM_CONFIG_DIR", d),
        ("YLEM_BASE_URL", down.as_str()),
        ("YLEM_CLIENT_ID", CLIENT_ID),
        ("YLEM_CLIENT_SECRET", SECRET),
    ];
    let args = ["status", "orders", "nightly", ids[2], "--retries", "0"];
    for env in [&token[..], &client[..]] {
        let o = ylem(&args, env);
        assert_eq!(o.code, 6, "{}", o.stderr);
        let rows: Vec<&str> = o.stdout.lines().skip(1).collect();
        assert_eq!(rows.len(), 3, "{}", o.stdout);
        for name in ["orders", "nightly", ids[2]] {
            let row = rows.iter().find(|r| r.contains(name));
            let row = row.unwrap_or_else(|| panic!("{name}:\n{}", o.stdout));
            assert!(row.contains("unknown (network)"), "{}", o.stdout);
        }
        let errors: Vec<&str> = o
            .stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .collect();
        assert_eq!(errors.len(), 1, "{}", o.stderr);
        assert_eq!(o.stderr.matches("hint: ").count(), 1, "{}", o.stderr);
        for label in [
            format!("orders (pipeline {})", ids[0]),
            format!("nightly (pipeline {})", ids[1]),
            format!("pipeline {}", ids[2]),
        ] {
            assert!(errors[0].contains(&label), "{label}: {}", o.stderr);
        }
        assert!(errors[0].contains("cannot connect"), "{}", o.stderr);
        let all = o.all();
        for secret in [TOKEN, SECRET] {
            assert!(!all.contains(secret), "a secret in the output: {all}");
        }
    }
}

/// One metric name, one meaning (issue 42): `ylem_last_run_timestamp_seconds`
/// is the judged last run's end in `last-run` and `status`, and `stats`,
/// whose last-run figures are the server's own (for a pipeline in the
/// spec's dialect its first reported row, seconds before the run's end),
/// gives those under `ylem_stats_last_run_*` instead of under that name.
#[test]
fn a_last_run_gauge_has_one_value_for_one_run_in_every_command() {
    let gauge = |text: &str, name: &str| -> Option<i64> {
        text.lines()
            .find(|l| l.starts_with(&format!("{name}{{")))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse::<f64>().ok())
            .map(|v| v as i64)
    };
    let seconds = |v: &Value| {
        chrono::DateTime::parse_from_rfc3339(v.as_str().unwrap())
            .unwrap()
            .timestamp()
    };
    for dialect in ["spec", "ylem"] {
        let sb = start(dialect);
        let p0 = sb.pipelines[0].0.as_str();
        let o = sb.run(&["last-run", "pipeline", p0, "-o", "json"]);
        assert_eq!(o.code, 0, "{dialect}: {}", o.stderr);
        let last: Value = serde_json::from_str(&o.stdout).unwrap();
        let ended = seconds(&last["ended"]);
        for args in [
            vec!["last-run", "pipeline", p0, "-o", "prometheus"],
            vec!["status", p0, "-o", "prometheus"],
        ] {
            let o = sb.run(&args);
            assert_eq!(
                gauge(&o.stdout, "ylem_last_run_timestamp_seconds"),
                Some(ended),
                "{dialect} {args:?}: {}",
                o.stdout
            );
        }
        let o = sb.run(&["stats", "pipeline", p0, "-o", "json"]);
        let stats: Value = serde_json::from_str(&o.stdout).unwrap();
        let o = sb.run(&["stats", "pipeline", p0, "-o", "prometheus"]);
        assert_eq!(
            gauge(&o.stdout, "ylem_last_run_timestamp_seconds"),
            None,
            "{dialect}: stats gives the server's time under its own name: {}",
            o.stdout
        );
        assert_eq!(
            gauge(&o.stdout, "ylem_stats_last_run_executed_at_seconds"),
            Some(seconds(&stats["last_run_executed_at"])),
            "{dialect}: {}",
            o.stdout
        );
        assert_eq!(promtool(&o.stdout).0, 0, "{}", o.stdout);
    }
}
