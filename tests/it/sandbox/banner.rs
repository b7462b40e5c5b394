//! `ylemctl sandbox -o json`: the banner as one JSON object on the first
//! line of stdout, saying what the text banner says, whose credentials and
//! IDs work against the sandbox it describes.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdout, Command, Stdio};

use crate::common::ylem;
use serde_json::Value;

/// A sandbox process, killed when dropped (a failed assertion must not
/// leave it serving).
struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Start `ylemctl sandbox ARGS` and read its first line of stdout; the
/// process, still serving, is handed back with what is left of stdout.
fn first_line(args: &[&str]) -> (Serving, String, BufReader<ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .args(["sandbox", "--listen", "127.0.0.1:0"])
        .args(args)
        .env_clear()
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    (Serving(child), line, out)
}

#[test]
fn sandbox_json_banner_is_one_line_with_everything_and_its_credentials_work() {
    for dialect in ["spec", "ylem"] {
        let (mut child, line, mut rest) =
            first_line(&["--dialect", dialect, "--seed", "3", "-o", "json"]);
        let b: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(b["dialect"], dialect);
        assert_eq!(b["seed"], 3);
        let base = b["base_url"].as_str().unwrap();
        assert!(base.starts_with("http://127.0.0.1:"), "{base}");
        for k in ["client_id", "client_secret", "output_key"] {
            assert!(b[k].as_str().is_some_and(|s| !s.is_empty()), "{k}: {line}");
        }
        assert_eq!(b["output_key"].as_str().unwrap().len(), 64);
        assert_eq!(b["outputs_encrypted"], dialect == "spec");
        let pipelines = b["pipelines"].as_array().unwrap();
        assert!(pipelines.len() >= 2);
        for p in pipelines {
            assert_eq!(p["uuid"].as_str().unwrap().len(), 36);
            assert!(p["name"].is_string() && p["notes"].is_array());
            let tasks = p["tasks"].as_array().unwrap();
            assert!(!tasks.is_empty());
            for t in tasks {
                assert!(
                    t["uuid"].is_string() && t["name"].is_string() && t["task_type"].is_string()
                );
            }
        }
        let labels: Vec<&str> = b["special_pipelines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["label"].as_str().unwrap())
            .collect();
        assert!(labels.contains(&"paused"), "{labels:?}");
        assert!(!b["workflows"].as_array().unwrap().is_empty());
        assert_eq!(b["workflows_routed"], dialect == "spec");
        // The credentials and IDs work: one read of the first pipeline.
        let env = [
            ("YLEM_BASE_URL", base),
            ("YLEM_CLIENT_ID", b["client_id"].as_str().unwrap()),
            ("YLEM_CLIENT_SECRET", b["client_secret"].as_str().unwrap()),
        ];
        let p = pipelines[0]["uuid"].as_str().unwrap();
        let o = ylem(
            &["stats", "pipeline", p, "--since", "30d", "-o", "json"],
            &env,
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        assert!(v.is_object(), "{v}");
        // Nothing but that line on stdout: the sandbox, stopped, adds none.
        Command::new("kill")
            .args(["-TERM", &child.0.id().to_string()])
            .status()
            .unwrap();
        let mut more = String::new();
        rest.read_to_string(&mut more).unwrap();
        assert_eq!(more, "", "stdout after the banner");
        let status = child.0.wait().unwrap();
        assert_eq!(status.code(), Some(0));
    }
}

/// The JSON banner says what the text banner says, for the same seed.
#[test]
fn sandbox_json_and_text_banners_agree() {
    let (a, line, _) = first_line(&["--seed", "5", "-o", "json"]);
    let b: Value = serde_json::from_str(&line).unwrap();
    drop(a);
    let (t, _, mut rest) = first_line(&["--seed", "5"]);
    // The text banner ends with its "Serving" line; read up to it.
    let mut text = String::new();
    let mut l = String::new();
    while rest.read_line(&mut l).unwrap() > 0 {
        let done = l.starts_with("Serving");
        text.push_str(&l);
        l.clear();
        if done {
            break;
        }
    }
    drop(t);
    for k in ["client_id", "client_secret", "output_key"] {
        assert!(
            text.contains(b[k].as_str().unwrap()),
            "{k} not in the text banner"
        );
    }
    for p in b["pipelines"].as_array().unwrap() {
        assert!(text.contains(p["uuid"].as_str().unwrap()));
        for t in p["tasks"].as_array().unwrap() {
            assert!(text.contains(t["uuid"].as_str().unwrap()));
        }
        for n in p["notes"].as_array().unwrap() {
            assert!(text.contains(n.as_str().unwrap()));
        }
    }
    for s in b["special_pipelines"].as_array().unwrap() {
        assert!(text.contains(s["uuid"].as_str().unwrap()));
    }
    for w in b["workflows"].as_array().unwrap() {
        assert!(text.contains(w["uuid"].as_str().unwrap()));
    }
}

/// The `Date` header of the sandbox's answer to one plain request.
fn date_header(base: &str) -> chrono::DateTime<chrono::Utc> {
    use std::io::Write;
    let addr = base.trim_start_matches("http://");
    let mut conn = std::net::TcpStream::connect(addr).unwrap();
    write!(
        conn,
        "GET /v1/nowhere HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    let date = answer
        .lines()
        .find_map(|l| l.strip_prefix("date: "))
        .unwrap_or_else(|| panic!("no Date in:\n{answer}"));
    chrono::DateTime::parse_from_rfc2822(date)
        .unwrap()
        .with_timezone(&chrono::Utc)
}

/// `doctor`'s knobs: the sandbox starts with them, its banner names them,
/// they reach the server (a skewed Date, a 401 with fresh tokens), and its
/// help lists them.
#[test]
fn sandbox_starts_with_doctors_knobs_and_names_them() {
    let knobs = [
        "--clock-skew",
        "90s",
        "--scopes",
        "stats:read",
        "--plan-disabled",
    ];
    let (t, first, mut rest) = first_line(&knobs);
    let mut text = first;
    let mut l = String::new();
    while rest.read_line(&mut l).unwrap() > 0 && !l.starts_with("Pipelines") {
        text.push_str(&l);
        l.clear();
    }
    drop(t);
    for line in [
        "  clock skew     +90s (every Date header 90s ahead of the true time)\n",
        "  scopes         stats:read (tokens grant only these; 403 where another is needed)\n",
        "  plan           API disabled (401 on every authenticated endpoint; tokens still issued)\n",
    ] {
        assert!(text.contains(line), "{line:?} not in:\n{text}");
    }
    // A skew behind, given as a separate argument, and the plan check: the
    // client gets tokens, and 401 with each.
    let (_s, line, _) = first_line(&["--clock-skew", "-10m", "--plan-disabled", "-o", "json"]);
    let b: Value = serde_json::from_str(&line).unwrap();
    let base = b["base_url"].as_str().unwrap();
    let off = date_header(base) - (chrono::Utc::now() - chrono::TimeDelta::minutes(10));
    assert!(
        off.num_seconds().abs() <= 2,
        "Date off by {off} from 10m behind"
    );
    let env = [
        ("YLEM_BASE_URL", base),
        ("YLEM_CLIENT_ID", b["client_id"].as_str().unwrap()),
        ("YLEM_CLIENT_SECRET", b["client_secret"].as_str().unwrap()),
    ];
    let p = b["pipelines"][0]["uuid"].as_str().unwrap();
    let o = ylem(&["last-run", "pipeline", p], &env);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("HTTP 401"), "{}", o.stderr);
    // The help says what each knob does.
    let help = ylem(&["sandbox", "--help"], &[]).stdout;
    for word in [
        "--clock-skew <DURATION>",
        "--scopes <LIST>",
        "--plan-disabled",
        "stats:read guards the statistics and log endpoints",
        "pipelines:run pipeline run starts",
        "workflows:run workflow run starts",
    ] {
        assert!(help.contains(word), "{word} missing from:\n{help}");
    }
}
