//! Issue 36's smaller items, the built binary against the sandbox: counts of
//! one said in the singular, `check --window 0s` refused, `--listen
//! localhost:PORT`, `alias set` naming what it replaced, identical errors
//! of several IDs said once.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::process::{Killed, free_port};
use crate::common::sandbox::{Sandbox, start};

/// `ylemctl metrics serve --listen LISTEN IDS`: its first line on stdout
/// (the banner), the process killed after.
fn serve_banner(sb: &Sandbox, listen: &str, ids: &[&str]) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .env(
            "YLEM_CONFIG_DIR",
            std::env::temp_dir().join("ylemctl-wording-none"),
        )
        .args(["metrics", "serve", "--listen", listen])
        .args(ids)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = Killed(c.spawn().unwrap());
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line
}

#[test]
fn one_entity_is_said_in_the_singular() {
    let sb = start("spec");
    let port = free_port();
    let one = serve_banner(&sb, &format!("127.0.0.1:{port}"), &[&sb.pipelines[0].0]);
    assert!(one.contains(" for 1 entity (cache "), "{one}");
    let port = free_port();
    let two = serve_banner(
        &sb,
        &format!("127.0.0.1:{port}"),
        &[&sb.pipelines[0].0, &sb.pipelines[1].0],
    );
    assert!(two.contains(" for 2 entities (cache "), "{two}");
}

/// An empty window holds no run, so a failure rate over it would say OK on
/// nothing: `--window 0s` (and anything under a second) is a usage error,
/// which `check` says as its UNKNOWN line (exit 3), before any request.
#[test]
fn check_refuses_an_empty_window() {
    let sb = start("spec");
    let p = sb.pipelines[0].0.clone();
    let before = sb.requests().len();
    for w in ["0s", "0m"] {
        let o = sb.run(&[
            "check",
            "pipeline",
            &p,
            "--max-failure-rate",
            "10",
            "--window",
            w,
        ]);
        assert_eq!(o.code, 3, "{w}: {}{}", o.stdout, o.stderr);
        assert_eq!(
            o.stdout,
            format!("UNKNOWN - invalid value '{w}' for '--window <D>': must be at least 1s\n")
        );
    }
    assert_eq!(sb.requests().len(), before, "nothing was sent");
    let o = sb.run(&[
        "check",
        "pipeline",
        &p,
        "--max-failure-rate",
        "10",
        "--window",
        "1s",
    ]);
    assert!(
        o.stdout.starts_with("OK - ") || o.stdout.starts_with("CRITICAL - "),
        "{}",
        o.stdout
    );
}

/// `--listen localhost:PORT`: the host name is resolved (to loopback, so no
/// `--allow-remote` is needed) and served, not "invalid socket address
/// syntax"; a name without a port says what to write.
#[test]
fn listen_resolves_a_host_name() {
    let sb = start("spec");
    let port = free_port();
    let line = serve_banner(&sb, &format!("localhost:{port}"), &[&sb.pipelines[0].0]);
    assert!(
        line.starts_with(&format!(
            "Serving http://127.0.0.1:{port}/metrics for 1 entity"
        )),
        "{line}"
    );
    let o = sb.run(&["metrics", "serve", "--listen", "localhost"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("use HOST:PORT, e.g. 127.0.0.1:9339 or localhost:9339"),
        "{}",
        o.stderr
    );
}

/// `alias set` over an alias of the same name says what it pointed at
/// before (in the same table: global, or the profile's with
/// `--profile-only`); a new one and one set again to its value say so.
#[test]
fn alias_set_names_what_it_replaced() {
    use crate::common::{P1, P2, ylem};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let env = [("YLEM_CONFIG_DIR", d)];
    let set = |args: &[&str]| {
        let o = ylem(args, &env);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        o.stderr
    };
    assert_eq!(
        set(&["alias", "set", "orders", P1]),
        format!("orders → {P1}\n")
    );
    assert_eq!(
        set(&["alias", "set", "orders", &format!("workflow:{P2}")]),
        format!("orders → workflow:{P2} (replaced {P1})\n")
    );
    assert_eq!(
        set(&["alias", "set", "orders", &format!("workflow:{P2}")]),
        format!("orders → workflow:{P2} (unchanged)\n")
    );
    // The profile's own table is another: nothing in it to replace yet.
    assert_eq!(
        set(&[
            "-p",
            "staging",
            "alias",
            "set",
            "orders",
            P1,
            "--profile-only"
        ]),
        format!("orders → {P1}\n")
    );
    assert_eq!(
        set(&[
            "-p",
            "staging",
            "alias",
            "set",
            "orders",
            P2,
            "--profile-only"
        ]),
        format!("orders → {P2} (replaced {P1})\n")
    );
}

/// A service that is down fails every ID alike: the error is said once,
/// naming every ID it hit, with the exit code it had (6); `status -o
/// prometheus` says it once too and still exits 0 (`ylem_up 0` each).
#[test]
fn identical_errors_of_several_ids_are_said_once() {
    use crate::common::{TOKEN, ylem};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Nothing listens there: bound, then let go.
    let down = format!("http://127.0.0.1:{}", free_port());
    let env = [
        ("YLEM_CONFIG_DIR", d),
        ("YLEM_BASE_URL", down.as_str()),
        ("YLEM_TOKEN", TOKEN),
    ];
    let ids: Vec<String> = (1..=7)
        .map(|i| format!("3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5{i}"))
        .collect();
    for (i, id) in ids.iter().enumerate() {
        let name = format!("p{i}");
        assert_eq!(ylem(&["alias", "set", &name, id], &env).code, 0);
    }
    let mut stats = vec!["stats", "pipeline"];
    stats.extend(ids.iter().map(String::as_str));
    let o = ylem(&stats, &env);
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert_eq!(
        o.stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .count(),
        1,
        "{}",
        o.stderr
    );
    assert_eq!(
        o.stderr.lines().filter(|l| l.starts_with("hint: ")).count(),
        1,
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .starts_with(&format!("error: {}: cannot connect", ids.join(", "))),
        "{}",
        o.stderr
    );
    let o = ylem(&["status", "-o", "prometheus"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .count(),
        1,
        "{}",
        o.stderr
    );
    assert_eq!(o.stdout.matches("ylem_up{").count(), 7, "{}", o.stdout);
    for id in &ids {
        assert!(o.stderr.contains(&format!("pipeline {id}")), "{}", o.stderr);
    }
}

/// The pages say what the binary does (`generated::` keeps them equal to
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
