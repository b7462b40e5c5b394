//! `ylemctl doctor` against the sandbox and its knobs (clock skew, scopes,
//! the plan check), TLS from a CA made for the test, a server that is
//! down, a wrong secret and a profile bound to another URL: the check that
//! should warn or fail does, the others say ok or skip, the exit code is
//! the first failed check's, and no secret reaches any output.

use crate::common;

use common::certs::{make_certs_for_days, tls_front};
use common::login::ylem_in;
use common::process::free_port;
use common::report::SECRETS;
use common::sandbox::{Sandbox, start_with};
use common::{Out, ylem};
use serde_json::Value;

const NAMES: [&str; 6] = [
    "set-up",
    "network",
    "clock",
    "credentials",
    "api",
    "aliases",
];

/// No secret of the test servers, nor the sandbox's, in either stream.
fn clean(o: &Out, sb: Option<&Sandbox>) {
    let all = o.all();
    for s in SECRETS {
        assert!(!all.contains(s), "a secret reached the output:\n{all}");
    }
    if let Some(sb) = sb {
        assert!(!all.contains(&sb.secret), "the sandbox's secret:\n{all}");
    }
}

/// `doctor -o json` with the sandbox's client credentials in the
/// environment, `more` besides; checked for secrets and for its shape.
fn doctor(sb: &Sandbox, base: &str, more: &[(&str, &str)]) -> (Out, Value) {
    let mut env = vec![
        ("YLEM_BASE_URL", base),
        ("YLEM_CLIENT_ID", sb.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", sb.secret.as_str()),
    ];
    env.extend_from_slice(more);
    let o = ylem(&["doctor", "-o", "json"], &env);
    clean(&o, Some(sb));
    let v = shape(&o);
    (o, v)
}

/// The JSON shape: `ok` and the six checks in order, each with exactly
/// name, status, detail and hint (null for ok and skip).
fn shape(o: &Out) -> Value {
    let v: Value = serde_json::from_str(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", o.stdout, o.stderr));
    let checks = v["checks"].as_array().expect("checks");
    let names: Vec<&str> = checks.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, NAMES, "{v}");
    for c in checks {
        let keys: Vec<&String> = c.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "status", "detail", "hint"], "{c}");
        let status = c["status"].as_str().unwrap();
        assert!(["ok", "warn", "fail", "skip"].contains(&status), "{c}");
        assert!(c["detail"].is_string(), "{c}");
        match status {
            "warn" | "fail" => assert!(c["hint"].is_string(), "{c}"),
            _ => assert!(c["hint"].is_null(), "{c}"),
        }
    }
    assert_eq!(v["ok"], !checks.iter().any(|c| c["status"] == "fail"));
    assert_eq!(v["ok"], o.code == 0, "{v}");
    v
}

fn status<'a>(v: &'a Value, name: &str) -> &'a str {
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name);
    c.unwrap()["status"].as_str().unwrap()
}

fn detail(v: &Value, name: &str) -> String {
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name);
    let c = c.unwrap();
    format!("{} {}", c["detail"], c["hint"])
}

fn statuses(v: &Value) -> Vec<&str> {
    NAMES.iter().map(|n| status(v, n)).collect()
}

#[test]
fn a_plain_sandbox_is_all_ok_in_both_dialects() {
    for dialect in ["ylem", "spec"] {
        let sb = start_with(dialect, &[]);
        let (o, v) = doctor(&sb, &sb.base, &[]);
        assert_eq!(o.code, 0, "{v}\n{}", o.stderr);
        assert_eq!(statuses(&v), ["ok"; 6], "{v}");
        let api = detail(&v, "api");
        match dialect {
            "ylem" => assert!(api.contains("open-source Ylem server"), "{api}"),
            _ => assert!(api.contains("dialect: the service spec"), "{api}"),
        }
        assert!(
            detail(&v, "credentials").contains("refresh grant works"),
            "{v}"
        );
        // What reached the service: the Date probe, a token and its
        // refresh, one statistics request, the workflow probe, the date
        // form (asked twice by the open-source server); no run started.
        let seen = sb.requests();
        assert!(!seen.iter().any(|r| r.contains("/runs/")), "{seen:?}");
        let tokens = seen.iter().filter(|r| r.contains("/oauth/token")).count();
        assert_eq!(tokens, 2, "{seen:?}");
        assert_eq!(
            seen.len(),
            if dialect == "ylem" { 7 } else { 6 },
            "{seen:?}"
        );
    }
}

#[test]
fn text_output_is_one_line_a_check_and_other_formats_are_refused() {
    let sb = start_with("ylem", &["--clock-skew", "2m"]);
    let o = sb.run(&["doctor"]);
    clean(&o, Some(&sb));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", o.stdout);
    for (line, name) in lines.iter().zip(NAMES) {
        assert!(line.split_whitespace().nth(1) == Some(name), "{line}");
    }
    assert!(
        lines[2].starts_with("warn") && lines[2].contains("(fix: "),
        "{}",
        lines[2]
    );
    let bad = sb.run(&["doctor", "-o", "csv"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("-o json"), "{}", bad.stderr);
    assert!(bad.stdout.is_empty());
}

#[test]
fn a_clock_off_by_two_minutes_warns_and_by_ten_fails() {
    let sb = start_with("ylem", &["--clock-skew", "2m"]);
    let (o, v) = doctor(&sb, &sb.base, &[]);
    assert_eq!(o.code, 0, "{v}");
    assert_eq!(statuses(&v), ["ok", "ok", "warn", "ok", "ok", "ok"], "{v}");
    assert!(detail(&v, "clock").contains("ahead"), "{v}");
    let sb = start_with("ylem", &["--clock-skew", "-10m"]);
    let (o, v) = doctor(&sb, &sb.base, &[]);
    assert_eq!(o.code, 2, "{v}");
    assert_eq!(statuses(&v), ["ok", "ok", "fail", "ok", "ok", "ok"], "{v}");
    assert!(detail(&v, "clock").contains("behind"), "{v}");
}

/// A token without pipelines:run still reads: a warning naming the scope,
/// not a failure.
#[test]
fn a_missing_scope_warns_in_credentials() {
    let sb = start_with("ylem", &["--scopes", "stats:read"]);
    let (o, v) = doctor(&sb, &sb.base, &[]);
    assert_eq!(o.code, 0, "{v}");
    assert_eq!(statuses(&v), ["ok", "ok", "ok", "warn", "ok", "ok"], "{v}");
    assert!(detail(&v, "credentials").contains("pipelines:run"), "{v}");
    // Without stats:read the statistics request itself is refused.
    let sb = start_with("ylem", &["--scopes", "pipelines:run"]);
    let (o, v) = doctor(&sb, &sb.base, &[]);
    assert_eq!(o.code, 3, "{v}");
    assert_eq!(
        statuses(&v),
        ["ok", "ok", "ok", "warn", "fail", "skip"],
        "{v}"
    );
    assert!(detail(&v, "api").contains("stats:read"), "{v}");
}

/// The spec's token grants only `workflows:run` (the spec names no other
/// scope): an ok that says how it was decided, read as the whole API with
/// the statistics request passing, never a bare "granting workflows:run".
#[test]
fn the_specs_one_scope_passes_saying_how_it_was_decided() {
    let sb = start_with("spec", &[]);
    let (o, v) = doctor(&sb, &sb.base, &[]);
    assert_eq!(o.code, 0, "{v}");
    assert_eq!(statuses(&v), ["ok", "ok", "ok", "ok", "ok", "ok"], "{v}");
    let d = detail(&v, "credentials");
    assert!(d.contains("granting workflows:run"), "{v}");
    assert!(d.contains("the spec's only scope"), "{v}");
    assert!(d.contains("reads work"), "{v}");
}

#[test]
fn a_plan_without_the_api_fails_the_api_check() {
    let sb = start_with("ylem", &["--plan-disabled"]);
    let (o, v) = doctor(&sb, &sb.base, &[]);
    assert_eq!(o.code, 3, "{v}");
    assert_eq!(
        statuses(&v),
        ["ok", "ok", "ok", "ok", "fail", "skip"],
        "{v}"
    );
    assert!(detail(&v, "api").contains("plan"), "{v}");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ylemctl-doctor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn tls_from_a_test_ca_warns_of_expiry_and_fails_untrusted() {
    let sb = start_with("ylem", &[]);
    let dir = temp_dir("tls");
    let (ca, cert, key) = make_certs_for_days(&dir, 5);
    let port = tls_front(
        &cert,
        &key,
        sb.base.rsplit(':').next().unwrap().parse().unwrap(),
    );
    let base = format!("https://127.0.0.1:{port}");
    let (o, v) = doctor(&sb, &base, &[("SSL_CERT_FILE", ca.to_str().unwrap())]);
    assert_eq!(o.code, 0, "{v}");
    assert_eq!(statuses(&v), ["ok", "warn", "ok", "ok", "ok", "ok"], "{v}");
    let net = detail(&v, "network");
    assert!(
        net.contains("the chain verifies") && net.contains("days"),
        "{net}"
    );
    assert!(net.contains("name matches"), "{net}");

    let (o, v) = doctor(&sb, &base, &[]);
    assert_eq!(o.code, 6, "{v}");
    assert_eq!(
        statuses(&v),
        ["ok", "fail", "skip", "skip", "skip", "skip"],
        "{v}"
    );
    assert!(detail(&v, "network").contains("SSL_CERT_FILE"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_that_is_down_fails_the_network_and_skips_the_rest() {
    let sb = start_with("ylem", &[]);
    let base = format!("http://127.0.0.1:{}", free_port());
    let (o, v) = doctor(&sb, &base, &[]);
    assert_eq!(o.code, 6, "{v}");
    assert_eq!(
        statuses(&v),
        ["ok", "fail", "skip", "skip", "skip", "skip"],
        "{v}"
    );
}

#[test]
fn a_wrong_secret_fails_credentials() {
    let sb = start_with("ylem", &[]);
    let wrong = "wrong-secret-1234567890abcdef";
    let (o, v) = doctor(&sb, &sb.base, &[("YLEM_CLIENT_SECRET", wrong)]);
    assert_eq!(o.code, 3, "{v}");
    assert_eq!(
        statuses(&v),
        ["ok", "ok", "ok", "fail", "skip", "skip"],
        "{v}"
    );
    assert!(!o.all().contains(wrong), "{}", o.all());
}

/// A stored login with aliases: all ok; then given another sandbox's URL,
/// set-up fails (exit 2: the set-up's kind) and that server gets no token
/// request, no secret.
#[test]
fn a_stored_login_with_aliases_and_one_bound_to_another_url() {
    let sb = start_with("ylem", &[]);
    let other = start_with("ylem", &[]);
    let dir = temp_dir("bound");
    let login = ylem_in(
        &dir,
        &[
            "login",
            "--base-url",
            &sb.base,
            "--client-id",
            &sb.client_id,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{}\n", sb.secret)),
        &[],
    );
    assert_eq!(login.code, 0, "{}", login.stderr);
    let p = format!("pipeline:{}", sb.pipelines[0].0);
    let t = format!("task:{}", sb.pipelines[0].1[0]);
    for (name, target) in [("orders", p.as_str()), ("first-task", t.as_str())] {
        assert_eq!(
            ylem_in(&dir, &["alias", "set", name, target], None, &[]).code,
            0
        );
    }
    let o = ylem_in(&dir, &["doctor", "-o", "json"], None, &[]);
    clean(&o, Some(&sb));
    let v = shape(&o);
    assert_eq!(o.code, 0, "{v}");
    assert_eq!(statuses(&v), ["ok"; 6], "{v}");
    assert!(
        detail(&v, "aliases").contains("2 aliases asked, 2 answered"),
        "{v}"
    );
    assert!(detail(&v, "set-up").contains("from the profile"), "{v}");
    // The open-source server's date form, learnt and remembered as the
    // other commands do.
    let config = std::fs::read_to_string(dir.join("config.toml")).unwrap();
    assert!(config.contains("aggregate_date_time = true"), "{config}");

    // A config file others may write: a warning with the chmod that fixes it.
    let file = dir.join("config.toml");
    common::certs::sh(&dir, "chmod", &["666", file.to_str().unwrap()]);
    let o = ylem_in(&dir, &["doctor", "-o", "json"], None, &[]);
    let v = shape(&o);
    assert_eq!(o.code, 0, "{v}");
    assert_eq!(status(&v, "set-up"), "warn", "{v}");
    assert!(detail(&v, "set-up").contains("chmod 644"), "{v}");
    common::certs::sh(&dir, "chmod", &["600", file.to_str().unwrap()]);

    let o = ylem_in(
        &dir,
        &["doctor", "-o", "json"],
        None,
        &[("YLEM_BASE_URL", &other.base)],
    );
    clean(&o, Some(&sb));
    let v = shape(&o);
    assert_eq!(o.code, 2, "{v}");
    assert_eq!(status(&v, "set-up"), "fail", "{v}");
    assert!(detail(&v, "set-up").contains(&sb.base), "{v}");
    assert_eq!(&statuses(&v)[3..], ["skip"; 3], "{v}");
    let seen = other.requests();
    assert!(!seen.iter().any(|r| r.contains("oauth")), "{seen:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Known token values (a token endpoint of the fault server) are searched
/// for in every stream: the fresh token and the refreshed one are never shown.
#[test]
fn no_token_reaches_the_output() {
    use common::faultserver::{json, route};
    let s = common::login::server(86400);
    s.first(
        route()
            .path_like("*aggregated-stats/*")
            .answer(json(200, "[]")),
    );
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        common::login::login(dir.path(), &s.base(), common::SECRET).code,
        0
    );
    for args in [
        vec!["doctor"],
        vec!["doctor", "-o", "json"],
        vec!["doctor", "-vv"],
    ] {
        let o = ylem_in(dir.path(), &args, None, &[]);
        clean(&o, None);
        assert_eq!(o.code, 0, "{args:?}: {}\n{}", o.stdout, o.stderr);
    }
    assert!(common::login::grants(&s, "refresh_token") >= 3);
}

/// A service that accepts connections and never answers: --max-time ends
/// doctor with the checks it made, the one running failed (exit 6).
#[test]
fn max_time_ends_it_with_the_checks_made() {
    let sb = start_with("ylem", &[]);
    // Never accepted: the kernel's backlog completes the connection, and
    // nothing ever answers on it.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", silent.local_addr().unwrap());
    let env = [
        ("YLEM_BASE_URL", base.as_str()),
        ("YLEM_CLIENT_ID", sb.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", sb.secret.as_str()),
    ];
    let o = ylem(&["doctor", "-o", "json", "--max-time", "2s"], &env);
    clean(&o, Some(&sb));
    let v = shape(&o);
    assert_eq!(o.code, 6, "{v}");
    assert_eq!(
        statuses(&v),
        ["ok", "ok", "fail", "skip", "skip", "skip"],
        "{v}"
    );
    assert!(detail(&v, "clock").contains("--max-time"), "{v}");
    let bad = sb.run(&["doctor", "-o", "prometheus"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("-o json"), "{}", bad.stderr);
}

/// The proxy from the environment: named (its password never), connected
/// to in place of the service; one that is down fails the network check;
/// NO_PROXY exempts the host.
#[test]
fn the_proxy_from_the_environment_is_checked() {
    let sb = start_with("ylem", &[]);
    let password = "proxy-pw-KKKKJJJJIIII";
    let proxy = format!("http://ops:{password}@127.0.0.1:{}", free_port());
    let (o, v) = doctor(&sb, &sb.base, &[("HTTP_PROXY", proxy.as_str())]);
    assert!(!o.all().contains(password), "{}", o.all());
    assert_eq!(o.code, 6, "{v}");
    assert_eq!(
        statuses(&v),
        ["ok", "fail", "skip", "skip", "skip", "skip"],
        "{v}"
    );
    assert!(
        detail(&v, "network").contains("HTTP_PROXY=http://***@127.0.0.1"),
        "{v}"
    );
    let (o, v) = doctor(
        &sb,
        &sb.base,
        &[("HTTP_PROXY", proxy.as_str()), ("NO_PROXY", "127.0.0.1")],
    );
    assert_eq!(o.code, 0, "{v}");
    assert!(detail(&v, "network").contains("no proxy"), "{v}");
}

/// A login stored in a fresh config directory `name`, to the sandbox.
fn logged_in(sb: &Sandbox, name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let login = ylem_in(
        &dir,
        &[
            "login",
            "--base-url",
            &sb.base,
            "--client-id",
            &sb.client_id,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{}\n", sb.secret)),
        &[],
    );
    assert_eq!(login.code, 0, "{}", login.stderr);
    dir
}

/// Aliases the other commands refuse or find nothing for are warned about
/// in both dialects: another organisation's pipeline (refused), a made-up
/// UUID and a pipeline's UUID set as a task (no run found); the good one
/// answers.
#[test]
fn aliases_other_commands_refuse_or_cannot_find_warn() {
    for dialect in ["ylem", "spec"] {
        let sb = start_with(dialect, &[]);
        let dir = logged_in(&sb, &format!("aliases-{dialect}"));
        let other = sb
            .other_org
            .clone()
            .expect("the other organisation's pipeline");
        let good = format!("pipeline:{}", sb.pipelines[0].0);
        let foreign = format!("pipeline:{other}");
        let made_up = "pipeline:0d6e1f3a-7b2c-4c5d-9e8f-0a1b2c3d4e5f".to_string();
        let wrong_kind = format!("task:{}", sb.pipelines[0].0);
        for (name, target) in [
            ("good", &good),
            ("foreign", &foreign),
            ("made-up", &made_up),
            ("wrong-kind", &wrong_kind),
        ] {
            let o = ylem_in(&dir, &["alias", "set", name, target], None, &[]);
            assert_eq!(o.code, 0, "{}", o.stderr);
        }
        let o = ylem_in(&dir, &["doctor", "-o", "json"], None, &[]);
        clean(&o, Some(&sb));
        let v = shape(&o);
        assert_eq!(o.code, 0, "{dialect}: {v}");
        assert_eq!(status(&v, "aliases"), "warn", "{dialect}: {v}");
        let d = detail(&v, "aliases");
        assert!(d.contains("4 aliases asked, 1 answered"), "{dialect}: {d}");
        assert!(d.contains("foreign (pipeline): refused"), "{dialect}: {d}");
        // Both servers' answers for an unknown ID (the open-source one's
        // 403, the spec's 404 with its error body) read as one that never
        // ran: no run found, in both dialects alike (issue 42).
        assert!(d.contains("made-up: no run found"), "{dialect}: {d}");
        assert!(d.contains("wrong-kind: no run found"), "{dialect}: {d}");
        assert!(d.contains("not a task"), "{dialect}: {d}");
        assert!(!d.contains("good"), "{dialect}: {d}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Every failure names a fix: an http service asked over https fails the
/// TLS handshake with a hint (the JSON shape asserts a hint for each warn
/// and fail).
#[test]
fn a_tls_handshake_with_a_plain_http_service_names_the_fix() {
    let sb = start_with("ylem", &[]);
    let base = sb.base.replace("http://", "https://");
    let (o, v) = doctor(&sb, &base, &[]);
    assert_eq!(o.code, 6, "{v}");
    assert_eq!(status(&v, "network"), "fail", "{v}");
    assert!(detail(&v, "network").contains("http://"), "{v}");
    let text = ylem(
        &["doctor"],
        &[
            ("YLEM_BASE_URL", base.as_str()),
            ("YLEM_CLIENT_ID", sb.client_id.as_str()),
            ("YLEM_CLIENT_SECRET", sb.secret.as_str()),
        ],
    );
    let line = text.stdout.lines().nth(1).unwrap_or_default().to_string();
    assert!(
        line.starts_with("fail") && line.contains("(fix: "),
        "{line}"
    );
}

/// A base URL whose path is wrong: no token endpoint there is a set-up
/// failure (exit 2) naming the base URL's path, not a "not found" of an ID
/// doctor does not have.
#[test]
fn a_base_url_with_a_wrong_path_fails_credentials_as_set_up() {
    for dialect in ["ylem", "spec"] {
        let sb = start_with(dialect, &[]);
        let base = format!("{}/wrong", sb.base);
        let (o, v) = doctor(&sb, &base, &[]);
        assert_eq!(o.code, 2, "{dialect}: {v}");
        assert_eq!(status(&v, "credentials"), "fail", "{v}");
        let d = detail(&v, "credentials");
        assert!(d.contains("no token endpoint at"), "{d}");
        assert!(d.contains("/wrong/v1/oauth/token"), "{d}");
        assert!(d.contains("base URL's path"), "{d}");
        assert!(!d.contains("the ID"), "{d}");
    }
}

/// A token endpoint that reads the secret only from the URL: a warning in
/// the JSON too, not only on stderr.
#[test]
fn a_token_endpoint_that_takes_only_the_query_form_warns() {
    let sb = start_with("ylem", &["--token-params", "query"]);
    let (o, v) = doctor(&sb, &sb.base, &[]);
    assert_eq!(o.code, 0, "{v}");
    assert_eq!(status(&v, "credentials"), "warn", "{v}");
    let d = detail(&v, "credentials");
    assert!(d.contains("only from the URL"), "{d}");
    assert!(d.contains("RFC 6749"), "{d}");
}

/// A gateway that strips `Date`: the clock check warns (skew unknown), it
/// does not fail the service that answered.
#[test]
fn a_server_without_a_date_header_warns_in_clock() {
    use common::faultserver::{Action, json, with_token};
    let s = with_token(|_, _| Action::Raw(json(200, "[]")));
    let base = format!("http://127.0.0.1:{}", s.port);
    let o = ylem(
        &["doctor", "-o", "json"],
        &[
            ("YLEM_BASE_URL", base.as_str()),
            ("YLEM_CLIENT_ID", common::CLIENT_ID),
            ("YLEM_CLIENT_SECRET", common::SECRET),
        ],
    );
    clean(&o, None);
    let v = shape(&o);
    assert_eq!(status(&v, "clock"), "warn", "{v}");
    assert!(detail(&v, "clock").contains("no Date header"), "{v}");
    assert_eq!(&statuses(&v)[..2], ["ok", "ok"], "{v}");
    assert_ne!(status(&v, "credentials"), "skip", "{v}");
}

/// A script's YLEM_OUTPUT that doctor cannot print gives its table (jsonl:
/// JSON); an explicit -o of it is still refused.
#[test]
fn ylem_output_from_the_environment_falls_back_to_a_table() {
    let sb = start_with("ylem", &[]);
    let env = |f: &'static str| {
        vec![
            ("YLEM_BASE_URL", sb.base.clone()),
            ("YLEM_CLIENT_ID", sb.client_id.clone()),
            ("YLEM_CLIENT_SECRET", sb.secret.clone()),
            ("YLEM_OUTPUT", f.to_string()),
        ]
    };
    for f in ["csv", "prometheus", "junit"] {
        let e = env(f);
        let e: Vec<(&str, &str)> = e.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let o = ylem(&["doctor"], &e);
        clean(&o, Some(&sb));
        assert_eq!(o.code, 0, "{f}: {}", o.stderr);
        assert_eq!(o.stdout.lines().count(), 6, "{f}: {}", o.stdout);
        assert!(o.stdout.starts_with("ok"), "{f}: {}", o.stdout);
        let bad = ylem(&["doctor", "-o", f], &e);
        assert_eq!(bad.code, 2, "{f}: {}", bad.stderr);
    }
    let e = env("jsonl");
    let e: Vec<(&str, &str)> = e.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let o = ylem(&["doctor"], &e);
    assert_eq!(o.code, 0, "{}", o.stderr);
    shape(&o);
}

/// Set-up says where the profile came from, and a credentials directory
/// others may read is warned about with its chmod.
#[test]
fn set_up_names_the_profile_source_and_the_credentials_directory_mode() {
    let sb = start_with("ylem", &[]);
    let dir = logged_in(&sb, "profile-source");
    let o = ylem_in(&dir, &["doctor", "-o", "json"], None, &[]);
    let v = shape(&o);
    assert_eq!(o.code, 0, "{v}");
    assert!(
        detail(&v, "set-up").contains("profile 'default' (the default)"),
        "{v}"
    );
    let o = ylem_in(
        &dir,
        &["doctor", "-o", "json"],
        None,
        &[("YLEM_PROFILE", "default")],
    );
    let v = shape(&o);
    assert!(
        detail(&v, "set-up").contains("profile 'default' (from YLEM_PROFILE)"),
        "{v}"
    );
    let o = ylem_in(&dir, &["-p", "default", "doctor", "-o", "json"], None, &[]);
    let v = shape(&o);
    assert!(
        detail(&v, "set-up").contains("profile 'default' (from -p/--profile)"),
        "{v}"
    );
    let creds = dir.join("credentials");
    common::certs::sh(&dir, "chmod", &["755", creds.to_str().unwrap()]);
    let o = ylem_in(&dir, &["doctor", "-o", "json"], None, &[]);
    let v = shape(&o);
    assert_eq!(status(&v, "set-up"), "warn", "{v}");
    assert!(detail(&v, "set-up").contains("chmod 700"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The list of checks in `doctor --help` keeps its continuation lines
/// indented at clap's default width (100 columns, no terminal).
#[test]
fn help_lists_the_checks_with_indented_continuations() {
    for cols in ["100", "80"] {
        let o = ylem(&["doctor", "--help"], &[("COLUMNS", cols)]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let block: Vec<&str> = o
            .stdout
            .lines()
            .skip_while(|l| !l.starts_with("  set-up"))
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(block.len(), 17, "{}", o.stdout);
        for l in block {
            assert!(l.starts_with("  "), "{cols}: {l:?}\n{}", o.stdout);
            assert!(l.len() <= 80, "{cols}: {l:?}");
        }
    }
}

/// A server that fails the statistics request (5xx, no hint of its own):
/// the api check fails with exit 5 and still names a fix.
#[test]
fn a_failing_statistics_request_fails_api_with_a_fix() {
    use common::faultserver::{Action, json, with_token};
    let s = with_token(|r, _| match r.path.contains("/stats/") {
        true => Action::Raw(json(500, r#"{"error":"boom"}"#)),
        false => Action::Raw(json(200, "[]")),
    });
    let base = format!("http://127.0.0.1:{}", s.port);
    let o = ylem(
        &["doctor", "-o", "json", "--retries", "0"],
        &[
            ("YLEM_BASE_URL", base.as_str()),
            ("YLEM_CLIENT_ID", common::CLIENT_ID),
            ("YLEM_CLIENT_SECRET", common::SECRET),
        ],
    );
    clean(&o, None);
    let v = shape(&o);
    assert_eq!(o.code, 5, "{v}");
    assert_eq!(status(&v, "api"), "fail", "{v}");
    assert!(detail(&v, "api").contains("try again later"), "{v}");
}
