//! The token request against hostile and query-only servers: parameters in
//! a form body and never a URL, the query form asked once and remembered
//! (new tokens and refreshes), and an unknown client id.

use crate::common;

use common::faultserver::*;
use common::login::ylem_in;
use common::report::Scenario;
use common::sandbox::{self, Sandbox};
use common::*;

/// The token requests the sandbox logged (`POST /v1/oauth/token` and the
/// names of any query parameters).
fn token_log(sb: &Sandbox) -> Vec<String> {
    sb.requests()
        .into_iter()
        .filter(|r| r.contains("/v1/oauth/token"))
        .collect()
}

const BODY_FORM: &str = "POST /v1/oauth/token";
const QUERY_FORM: &str = "POST /v1/oauth/token?grant_type&client_id&client_secret";
const REFRESH_QUERY: &str = "POST /v1/oauth/token?grant_type&client_id&refresh_token";

#[test]
fn token_parameters_go_in_the_body_and_never_in_a_url() {
    let mut sc = Scenario::new(
        "token-body",
        "secret",
        "the token request sends its parameters as a form body: no parameter in the URL in the sandbox's request log, -vv shows the body with client_secret=*** and no secret",
    );
    let sb = sandbox::start("spec");
    let p = &sb.pipelines[0].0;
    let o = sb.run(&["stats", "pipeline", p, "-vv"]);
    sc.check(&o);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(
        o.stderr.contains("application/x-www-form-urlencoded"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("client_secret=***"), "{}", o.stderr);
    assert!(!o.stderr.contains("token?"), "{}", o.stderr);
    assert_eq!(token_log(&sb), [BODY_FORM], "{:?}", sb.requests());
    sc.done();
}

#[test]
fn a_server_reading_only_the_query_is_asked_there_once_with_a_warning() {
    let mut sc = Scenario::new(
        "token-query-fallback",
        "secret",
        "against a token endpoint that reads only the query (sandbox --token-params query; a fault server answering a form body 400 invalid_request), the body is refused once, the query form works with a warning on stderr",
    );
    let sb = sandbox::start_with(
        "spec",
        &["--token-params", "query", "--task-delay", "100ms"],
    );
    let p = &sb.pipelines[0].0;
    let o = sb.run(&["stats", "pipeline", p]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(
        o.stderr.contains("warning:") && o.stderr.contains("access logs"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("client secret"), "{}", o.stderr);
    assert_eq!(token_log(&sb), [BODY_FORM, QUERY_FORM]);
    // A recording server that answers a form body 400 invalid_request.
    let s = FaultServer::start(|r, _| {
        if !r.path.starts_with("/v1/oauth/token") {
            Action::Raw(json(200, STATS))
        } else if r.path.contains("client_secret=") {
            token_response()
        } else {
            Action::Raw(json(
                400,
                r#"{"error":"invalid_request","error_description":"x"}"#,
            ))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
    sc.check(&o);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let tokens: Vec<Seen> = s
        .seen()
        .into_iter()
        .filter(|r| r.path.starts_with("/v1/oauth/token"))
        .collect();
    // The body, then a body with the grant type alone (no secret: did the
    // server read the body at all?), then the query form.
    assert_eq!(tokens.len(), 3, "{tokens:?}");
    assert_eq!(tokens[0].path, "/v1/oauth/token", "the first in the body");
    assert!(tokens[0].body.contains(&format!("client_secret={SECRET}")));
    assert_eq!(tokens[1].path, "/v1/oauth/token");
    assert!(!tokens[1].body.contains(SECRET), "{:?}", tokens[1]);
    assert!(tokens[2].path.contains("client_secret="));
    assert!(o.stderr.contains("warning:"), "{}", o.stderr);
    sc.done();
}

/// `login` of the sandbox's client into `dir`.
fn login(sb: &Sandbox, dir: &std::path::Path) -> Out {
    let args = [
        "login",
        "--base-url",
        &sb.base,
        "--client-id",
        &sb.client_id,
        "--client-secret-stdin",
        "--store",
        "file",
    ];
    ylem_in(dir, &args, Some(&format!("{}\n", sb.secret)), &[])
}

#[test]
fn a_profile_remembers_the_query_form_for_new_tokens_and_refreshes() {
    let mut sc = Scenario::new(
        "token-query-remembered",
        "secret",
        "a profile that learnt the query form at login keeps `token_params = \"query\"`: its next token request and its refresh go straight to the query form (no refused body first); a profile without the key learns it again at a refresh, with the warning",
    );
    let sb = sandbox::start_with(
        "spec",
        &[
            "--token-params",
            "query",
            "--token-ttl",
            "2s",
            "--task-delay",
            "100ms",
        ],
    );
    let p = sb.pipelines[0].0.clone();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = login(&sb, d);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(o.stderr.contains("warning:"), "{}", o.stderr);
    let config = d.join("config.toml");
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("token_params = \"query\"")
    );
    assert_eq!(token_log(&sb), [BODY_FORM, QUERY_FORM]);
    // No cached token: a new one, asked in the query form at once.
    std::fs::remove_file(d.join("credentials/default.token.json")).unwrap();
    let o = ylem_in(d, &["stats", "pipeline", &p], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(!o.stderr.contains("warning:"), "{}", o.stderr);
    assert_eq!(token_log(&sb)[2..], [QUERY_FORM]);
    // Past half its 2 s lifetime the token is refreshed, in the query form.
    // Its expiry is kept in whole seconds: it is due for renewal once the
    // second it came in is over.
    common::next_second();
    let o = ylem_in(d, &["stats", "pipeline", &p], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert_eq!(token_log(&sb)[3..], [REFRESH_QUERY]);
    // Forgotten: the refresh tries the body, is refused, and learns again.
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("token_params = \"query\"\n", "")).unwrap();
    common::next_second();
    let o = ylem_in(d, &["stats", "pipeline", &p], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.all().contains(&sb.secret), "{}", o.stderr);
    assert!(
        o.stderr.contains("refresh token now reaches"),
        "{}",
        o.stderr
    );
    assert_eq!(token_log(&sb)[4..], [BODY_FORM, REFRESH_QUERY]);
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("token_params = \"query\"")
    );
    sc.check_dir(d);
    sc.done();
}

#[test]
fn an_unknown_client_id_is_an_auth_error_with_a_hint() {
    let sb = sandbox::start("ylem");
    let p = &sb.pipelines[0].0;
    let o = sb.run_with(
        &["stats", "pipeline", p],
        &[("YLEM_CLIENT_ID", "0f0e0d0c-0000-4000-8000-000000000000")],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("server_error"), "{}", o.stderr);
    assert!(o.stderr.contains("check the client id"), "{}", o.stderr);
}

#[test]
fn a_wrong_secret_is_refused_without_trying_it_in_the_url() {
    // A server that reads the body answers a wrong secret 401
    // invalid_client, as a query-only server may answer a body it did not
    // read. A body with the grant type alone tells them apart, so the wrong
    // secret (often a near miss of the right one) never goes in a URL.
    let sb = sandbox::start("ylem");
    let p = &sb.pipelines[0].0;
    let wrong = "0123456789abcdef".repeat(4);
    let o = sb.run_with(
        &["stats", "pipeline", p],
        &[("YLEM_CLIENT_SECRET", wrong.as_str())],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("invalid_client"), "{}", o.stderr);
    assert!(!o.all().contains(&wrong), "{}", o.stderr);
    assert_eq!(
        token_log(&sb),
        [BODY_FORM, BODY_FORM],
        "the request and the probe, both bodies: {:?}",
        sb.requests()
    );
}
