//! No secret from a broken token endpoint (issue 43): a token endpoint that
//! answers token JSON with any status (200 of a bad shape, 300, 302, 400,
//! 401, 500), nested or cut short, never gets its tokens or the client
//! secret shown, on stderr or stdout, in text or `-o json` errors, with -v
//! or -vv; and `--jq`'s `env` and `$ENV` see no variable holding a secret.

use crate::common;

use common::faultserver::*;
use common::*;

const AT: &str = "AT-leak-1111aaaa2222bbbb3333cccc";
const RT: &str = "RT-leak-4444dddd5555eeee6666ffff";
const IT: &str = "IT-leak-7777gggg8888hhhh9999iiii";

/// Bodies of token JSON, whole, nested, cut short and echoing the secret.
fn bodies() -> Vec<String> {
    vec![
        format!(
            r#"{{"access_token": "{AT}", "token_type": "Bearer", "refresh_token": "{RT}", "id_token": "{IT}"}}"#
        ),
        format!(
            r#"{{"data": {{"access_token": "{AT}", "refresh_token": "{RT}"}}, "id_token": "{IT}"}}"#
        ),
        format!(r#"{{"access_token": "{AT}", "refresh_token": "{RT}", "id_token": "{IT}"#),
        format!(
            r#"{{"error": "invalid_client", "error_description": "got client_secret={SECRET} access_token={AT}&refresh_token={RT} id_token: {IT}"}}"#
        ),
        format!("access_token={AT}&refresh_token={RT}&id_token={IT}&client_secret={SECRET}"),
    ]
}

/// A 200 whose token JSON has a bad shape: a decoding error must not quote it.
fn bad_shapes() -> Vec<String> {
    vec![
        format!(r#"{{"access_token": "{AT}", "expires_in": "{RT}", "scope": 5}}"#),
        format!(r#"{{"access_token": ["{AT}"], "refresh_token": "{RT}"}}"#),
        format!(r#"{{"refresh_token": "{RT}", "token_type": "{AT}", "id_token": "{IT}"}}"#),
        format!(r#"["{AT}", "{RT}"]"#),
    ]
}

fn leaks(text: &str) -> Option<&'static str> {
    [AT, RT, IT, SECRET]
        .into_iter()
        .find(|s| text.contains(s) || text.contains(&s[3..]))
}

#[test]
fn no_error_path_of_the_token_endpoint_shows_a_secret() {
    let mut cases: Vec<(u16, String)> = Vec::new();
    for status in [300, 302, 400, 401, 500] {
        for b in bodies() {
            cases.push((status, b));
        }
    }
    for b in bad_shapes().into_iter().chain(bodies()) {
        cases.push((200, b));
    }
    let flags: [&[&str]; 4] = [&[], &["-v"], &["-vv"], &["-o", "json", "-vv"]];
    let mut scanned = 0;
    for (status, body) in &cases {
        let (status, body) = (*status, body.clone());
        let s = FaultServer::start(move |r, _| {
            if r.path.starts_with("/v1/oauth/token") {
                let loc = [("Location", "/elsewhere")];
                let headers: &[(&str, &str)] = if status / 100 == 3 { &loc } else { &[] };
                let mut h = vec![("Content-Type", "application/json")];
                h.extend_from_slice(headers);
                Action::Raw(response(status, &h, body.as_bytes()))
            } else {
                Action::Raw(json(200, STATS))
            }
        });
        for extra in flags {
            let dir = tempfile::tempdir().unwrap();
            let mut args = vec!["stats", "pipeline", P1];
            args.extend_from_slice(extra);
            let o = client_run(&s.base(), dir.path(), &args);
            assert!(o.code >= 0, "{status} {extra:?}: killed by a signal");
            if let Some(s) = leaks(&o.all()) {
                panic!(
                    "HTTP {status} {extra:?} shows {s}:\nstdout {}\nstderr {}",
                    o.stdout, o.stderr
                );
            }
            // Nothing the endpoint said is taken as a token: no stats asked.
            if status != 200 {
                assert_ne!(o.code, 0, "{status} {extra:?}: {}", o.stderr);
            }
            scanned += 1;
        }
        assert!(
            s.api()
                .iter()
                .all(|r| r.header("authorization").is_none_or(|a| !a.contains(RT))),
            "a refresh token sent as a bearer"
        );
    }
    assert_eq!(scanned, cases.len() * flags.len());
}

#[test]
fn jq_env_sees_no_variable_holding_a_secret() {
    let s = with_token(|_, _| Action::Raw(json(200, STATS)));
    let dir = tempfile::tempdir().unwrap();
    let base = s.base();
    let env = [
        ("YLEM_BASE_URL", base.as_str()),
        ("YLEM_CLIENT_ID", CLIENT_ID),
        ("YLEM_CLIENT_SECRET", SECRET),
        ("YLEM_CONFIG_DIR", dir.path().to_str().unwrap()),
        (
            "OTEL_EXPORTER_OTLP_HEADERS",
            "authorization=Bearer otel-hdr-secret-0000",
        ),
        ("MY_OWN_VAR", "visible-value"),
        ("SOME_NAME", SECRET),
    ];
    for expr in [
        "env",
        "$ENV",
        "env.YLEM_CLIENT_SECRET",
        "$ENV.YLEM_CLIENT_SECRET",
        "env | to_entries | map(.value) | join(\",\")",
    ] {
        for out in ["json", "jsonl"] {
            let o = ylem(&["stats", "pipeline", P1, "--jq", expr, "-o", out], &env);
            assert_eq!(o.code, 0, "{expr} {out}: {}", o.stderr);
            assert!(!o.all().contains(SECRET), "{expr} {out}: {}", o.stdout);
            assert!(!o.all().contains("otel-hdr-secret"), "{expr}: {}", o.stdout);
            if expr.starts_with("env |") || expr == "env" || expr == "$ENV" {
                assert!(o.stdout.contains("visible-value"), "{expr}: {}", o.stdout);
            }
        }
    }
    // The error path: a filter that raises the environment as its error.
    for out in ["json", "jsonl"] {
        let o = ylem(
            &[
                "stats",
                "pipeline",
                P1,
                "--jq",
                "error(env | tostring)",
                "-o",
                out,
            ],
            &env,
        );
        assert_eq!(o.code, 2, "a filter error (usage): {out}: {}", o.stderr);
        assert!(o.stderr.contains("visible-value"), "{out}: {}", o.stderr);
        assert!(!o.all().contains(SECRET), "{out}: {}", o.stderr);
        assert!(!o.all().contains("otel-hdr-secret"), "{out}: {}", o.stderr);
    }
    // YLEM_TOKEN too.
    let o = ylem(
        &["stats", "pipeline", P1, "--jq", "env | keys | join(\",\")"],
        &[("YLEM_BASE_URL", base.as_str()), ("YLEM_TOKEN", TOKEN)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        !o.stdout.contains("YLEM_TOKEN") && !o.all().contains(TOKEN),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("YLEM_BASE_URL"), "{}", o.stdout);
}
