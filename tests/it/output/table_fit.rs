//! What a table keeps, per command, on terminals of 80, 100 and 120
//! columns, both dialects (issue 44): the columns that say what went wrong
//! (the result, the failure or the decoded output, the task's type) outlive
//! identifiers that are constant or derivable (the run of `logs --run`, a
//! metric of 0 in every row); rows given by an alias are named by it; and
//! `--fields` takes keys and headers alike in every format; `status` at 80
//! columns keeps its health column.

use super::{env, plain};
use crate::common::{pty, sandbox, ylem};

/// The headers of the table `out` draws (its first line with `│`).
fn headers(out: &str) -> Vec<String> {
    let line = out
        .lines()
        .find(|l| l.contains('│'))
        .unwrap_or_else(|| panic!("no table:\n{out}"));
    line.split(['│', '┆'])
        .map(|h| h.trim().trim_end_matches(" (UTC)").to_string())
        .filter(|h| !h.is_empty())
        .collect()
}

struct Case {
    args: Vec<String>,
    /// Headers every width keeps.
    always: Vec<&'static str>,
    /// Headers no width shows.
    never: Vec<&'static str>,
    /// Headers kept from this width on.
    from: Vec<(usize, &'static str)>,
}

fn case(args: &[&str], always: &[&'static str], never: &[&'static str]) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        always: always.to_vec(),
        never: never.to_vec(),
        from: Vec::new(),
    }
}

fn check(dialect: &str, cases: &[Case], env: &[(&str, &str)]) {
    for c in cases {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        for cols in [80u16, 100, 120] {
            let o = pty::run(&args, env, cols, 40);
            let what = format!("{dialect} {args:?} at {cols}");
            assert_eq!(o.code, 0, "{what}: {}", o.stderr);
            let h = headers(&o.stdout);
            for want in &c.always {
                assert!(h.iter().any(|x| x == want), "{what}: {want} kept: {h:?}");
            }
            for not in &c.never {
                assert!(!h.iter().any(|x| x == not), "{what}: {not} left out: {h:?}");
            }
            for (w, want) in &c.from {
                if usize::from(cols) >= *w {
                    assert!(h.iter().any(|x| x == want), "{what}: {want}: {h:?}");
                }
            }
        }
    }
}

#[test]
fn tables_keep_what_went_wrong_over_what_is_said_already() {
    for dialect in ["spec", "ylem"] {
        let s = sandbox::start(dialect);
        let key = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(key.path(), &s.key).unwrap();
        let key = key.path().to_str().unwrap().to_string();
        let env = [
            ("YLEM_BASE_URL", s.base.as_str()),
            ("YLEM_CLIENT_ID", s.client_id.as_str()),
            ("YLEM_CLIENT_SECRET", s.secret.as_str()),
        ];
        // The pipeline whose runs fail, and one of its failed runs.
        let p = s.pipelines[1].0.clone();
        let failed = s.json(&["logs", &p, "--since", "30d", "--failed"]);
        let entries = failed.as_array().unwrap();
        assert!(!entries.is_empty(), "{dialect}: the sandbox has failures");
        assert!(
            entries.iter().all(|e| e["metric_value"] == 0),
            "{dialect}: a failed entry's metric is 0 (so METRIC says nothing)"
        );
        let run = entries[0]["workflow_run_uuid"]
            .as_str()
            .unwrap()
            .to_string();
        let (p2, p3) = (s.pipelines[0].0.clone(), s.pipelines[2].0.clone());
        // Decoded: with the key where the outputs are encrypted.
        let decode: Vec<&str> = match s.banner["outputs_encrypted"] == true {
            true => vec!["--decrypt-key-file", &key],
            false => vec!["--decode"],
        };
        let mut decoded = case(
            &[&["logs", &p, "--since", "30d", "--failed"][..], &decode].concat(),
            &["RUN_UUID", "RESULT", "OUTPUT"],
            &["METRIC"],
        );
        decoded.from = vec![(100, "EXECUTED_AT"), (120, "TASK_TYPE")];
        let mut by_run = case(
            &["logs", &p, "--since", "30d", "--run", &run],
            &["TASK_TYPE", "RESULT", "EXECUTED_AT"],
            &["RUN_UUID"],
        );
        by_run.from = vec![(100, "TASK_UUID")];
        let cases = [
            decoded,
            by_run,
            case(
                &["runs", &p, "--since", "30d", "--failed"],
                &["RUN_UUID", "RESULT", "FAILURE"],
                &[],
            ),
            case(
                &["stats", "pipeline", &p, &p2, &p3, "--since", "30d"],
                &["UUID", "FAILURES"],
                &[],
            ),
            case(
                &["last-run", "pipeline", &p, &p2],
                &["UUID", "RESULT", "FAILURE"],
                &[],
            ),
            case(
                &[
                    "status",
                    &format!("pipeline:{p}"),
                    &format!("pipeline:{p2}"),
                ],
                &["NAME", "STATUS", "FAILURE"],
                &[],
            ),
        ];
        check(dialect, &cases, &env);
    }
}

#[test]
fn rows_given_by_an_alias_are_named_by_it_in_a_table() {
    let s = sandbox::start("ylem");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (p1, p2) = (s.pipelines[1].0.as_str(), s.pipelines[0].0.as_str());
    let env = [("YLEM_CONFIG_DIR", d)];
    assert_eq!(ylem(&["alias", "set", "payments", p1], &env).code, 0);
    for args in [
        vec!["stats", "pipeline", "payments", p2, "--since", "30d"],
        vec!["last-run", "pipeline", "payments", p2],
        vec!["runs", "payments", p2, "--since", "30d"],
    ] {
        let o = s.run_with(&args, &env);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        let first: Vec<&str> = o
            .stdout
            .lines()
            .skip(1)
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert!(first.contains(&"payments"), "{args:?}: {}", o.stdout);
        assert!(!first.contains(&p1), "{args:?}: {}", o.stdout);
        // The UUID given as a UUID stays one.
        assert!(first.contains(&p2), "{args:?}: {}", o.stdout);
        // Machine formats keep the UUID.
        let o = s.run_with(&[&args[..], &["-o", "csv"]].concat(), &env);
        assert!(o.stdout.contains(p1) && !o.stdout.contains("payments"));
    }
}

/// The keys (a CSV header) and the table's headers of a command.
fn names(s: &sandbox::Sandbox, args: &[&str]) -> (String, String) {
    let csv = s.run(&[args, &["-o", "csv"]].concat());
    assert_eq!(csv.code, 0, "{args:?}: {}", csv.stderr);
    let table = s.run(&[args, &["-o", "table"]].concat());
    assert_eq!(table.code, 0, "{args:?}: {}", table.stderr);
    let keys = csv.stdout.lines().next().unwrap().to_string();
    let first = table.stdout.lines().next().unwrap().replace(" (UTC)", "");
    let heads: Vec<&str> = first.split_whitespace().collect();
    (keys, heads.join(","))
}

#[test]
fn fields_take_keys_and_headers_in_every_format() {
    let s = sandbox::start("ylem");
    let (p1, p2) = (s.pipelines[1].0.as_str(), s.pipelines[0].0.as_str());
    let (t1, t2) = (format!("pipeline:{p1}"), format!("pipeline:{p2}"));
    let commands: [Vec<&str>; 6] = [
        vec!["logs", p1, "--since", "30d", "--decode"],
        vec!["runs", p1, "--since", "30d"],
        vec!["stats", "pipeline", p1, p2, "--since", "30d"],
        vec!["last-run", "pipeline", p1, p2],
        vec!["status", &t1, &t2],
        vec![
            "aggregate",
            "pipeline",
            p1,
            "--period",
            "day",
            "--from",
            "2026-01-01",
            "--count",
            "2",
        ],
    ];
    for args in &commands {
        let (keys, heads) = names(&s, args);
        assert!(keys.contains(',') && heads.contains(','), "{args:?}");
        for fmt in ["table", "json", "jsonl", "csv"] {
            for list in [&keys, &heads, &keys.to_uppercase(), &heads.to_lowercase()] {
                let o = s.run(&[&args[..], &["-o", fmt, "--fields", list]].concat());
                assert_eq!(o.code, 0, "{args:?} -o {fmt} --fields {list}: {}", o.stderr);
            }
        }
    }
    // The guide's board, in every format, with the table's names.
    for fmt in ["table", "json", "jsonl", "csv"] {
        for list in ["name,status,last_run,age", "NAME,LAST_RUN,AGE,FAILURE"] {
            let o = s.run(&["status", &t1, &t2, "-o", fmt, "--fields", list]);
            assert_eq!(o.code, 0, "-o {fmt} --fields {list}: {}", o.stderr);
        }
    }
    // The same fact under either name: JSON's last_run_successful.
    let v = s.json(&["status", &t1, "--fields", "name,LAST_RUN,age"]);
    let o = v.as_object().unwrap();
    let mut keys: Vec<&String> = o.keys().collect();
    keys.sort();
    assert_eq!(keys, ["last_run_age", "last_run_successful", "name"], "{v}");
    // A name no format has is still refused.
    let o = s.run(&["status", &t1, "--fields", "name,nonsense"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

#[test]
fn status_at_80_columns_keeps_the_health_column() {
    let s = sandbox::start("spec");
    let ids: Vec<&str> = s.pipelines.iter().map(|p| p.0.as_str()).collect();
    let mut args = vec!["status"];
    args.extend(&ids);
    let o = pty::run(&args, &env(&s), 80, 40);
    let out = plain(&o.stdout);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let header = out.lines().nth(1).unwrap_or_default();
    assert!(
        header.contains("NAME") && header.contains("STATUS"),
        "{out}"
    );
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
}
