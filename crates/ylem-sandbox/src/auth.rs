//! The OAuth token endpoint (client credentials and refresh), the bearer
//! and plan check that guards every other endpoint, and the scope check of
//! each guarded route.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::options::{Dialect, Options, Scope, TokenParams};
use super::state::{Shared, api_error};
use super::sync;

/// Scopes granted to every token: those the options give, or else the
/// dialect's (then nothing is enforced).
fn granted(opts: &Options) -> Vec<&'static str> {
    match &opts.scopes {
        Some(scopes) => scopes.iter().map(|s| s.as_str()).collect(),
        None => match opts.dialect {
            Dialect::Spec => vec!["workflows:run"],
            Dialect::Ylem => vec!["pipelines:run", "stats:read"],
        },
    }
}

/// go-oauth2 style error body; codes and texts follow that library.
fn oauth_error(status: StatusCode, code: &str) -> Response {
    let text = match code {
        "unsupported_grant_type" => {
            "The authorization grant type is not supported by the authorization server"
        }
        "invalid_client" => "Client authentication failed",
        "invalid_grant" => {
            "The provided authorization grant or refresh token is invalid, expired or revoked"
        }
        "invalid_scope" => "The requested scope is invalid, unknown, or malformed",
        "invalid_request" => {
            "The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed"
        }
        "unauthorized_client" => {
            "The client is not authorized to request an authorization code using this method"
        }
        _ => {
            "The authorization server encountered an unexpected condition that prevented it from fulfilling the request"
        }
    };
    oauth_json(status, json!({ "error": code, "error_description": text }))
}

fn oauth_json(status: StatusCode, body: serde_json::Value) -> Response {
    let mut resp = (status, body.to_string()).into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json;charset=UTF-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    resp
}

/// `/v1/oauth/token`, GET or POST; parameters from the query string and/or a
/// form-encoded body (body wins), or only one of them (`token_params`).
pub async fn token(State(s): State<Arc<Shared>>, uri: Uri, body: Bytes) -> Response {
    let mut params = HashMap::new();
    if s.opts.token_params != TokenParams::Body {
        params.extend(parse_form(uri.query().unwrap_or("")));
    }
    if s.opts.token_params != TokenParams::Query {
        params.extend(parse_form(&String::from_utf8_lossy(&body)));
    }
    let get = |k: &str| params.get(k).map(String::as_str).unwrap_or("");
    let grant = get("grant_type");
    if grant.is_empty() {
        return oauth_error(StatusCode::UNAUTHORIZED, "unsupported_grant_type");
    }
    if grant != "client_credentials" && grant != "refresh_token" {
        return oauth_error(StatusCode::UNAUTHORIZED, "unauthorized_client");
    }
    if !get("scope").is_empty() && !scope_allowed(get("scope"), &s.opts) {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_scope");
    }
    let ttl = s.opts.token_ttl;
    let pair = if grant == "client_credentials" {
        if let Err((status, code)) = check_client(&s, get("client_id"), get("client_secret")) {
            return oauth_error(status, code);
        }
        sync::lock(&s.tokens).issue(ttl)
    } else {
        if get("client_id").is_empty() {
            return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client");
        }
        if get("refresh_token").is_empty() {
            return oauth_error(StatusCode::BAD_REQUEST, "invalid_request");
        }
        match sync::lock(&s.tokens).redeem(get("refresh_token"), ttl) {
            Some(pair) => pair,
            None => return oauth_error(StatusCode::UNAUTHORIZED, "invalid_grant"),
        }
    };
    // Granted scopes come in no fixed order on the real server.
    let mut granted = granted(&s.opts);
    sync::lock(&s.tokens).shuffle(&mut granted);
    oauth_json(
        StatusCode::OK,
        json!({
            "access_token": pair.0,
            "expires_in": ttl.as_secs(),
            "refresh_token": pair.1,
            "scope": granted.join(","),
            "token_type": "Bearer",
        }),
    )
}

/// Requested scopes are split on commas only.
fn scope_allowed(requested: &str, opts: &Options) -> bool {
    let granted = granted(opts);
    requested
        .split(',')
        .filter(|s| !s.is_empty())
        .all(|s| granted.contains(&s))
}

/// The real server looks the client up before checking the secret, and an
/// unknown client makes its store fail: 500 in ylem, a plain 401 in the spec.
/// The error is the status and OAuth error code to answer with.
fn check_client(s: &Shared, id: &str, secret: &str) -> Result<(), (StatusCode, &'static str)> {
    let invalid = (StatusCode::UNAUTHORIZED, "invalid_client");
    if id.is_empty() {
        return Err(invalid);
    }
    if !id.eq_ignore_ascii_case(&s.client_id.to_string()) {
        return Err(match s.opts.dialect {
            Dialect::Ylem => (StatusCode::INTERNAL_SERVER_ERROR, "server_error"),
            Dialect::Spec => invalid,
        });
    }
    if secret != s.client_secret {
        return Err(invalid);
    }
    Ok(())
}

/// Route layer for the authenticated endpoints: anything but exactly
/// `Authorization: Bearer <live token>` is a 401 with an empty body and no
/// Content-Type; so is every request while the plan has the API switched
/// off (`plan_disabled`), as the real server's plan check answers.
pub async fn require_bearer(State(s): State<Arc<Shared>>, req: Request, next: Next) -> Response {
    let token = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    match token {
        Some(t) if sync::lock(&s.tokens).is_valid(&t) && !s.opts.plan_disabled => {
            next.run(req).await
        }
        _ => StatusCode::UNAUTHORIZED.into_response(),
    }
}

/// Layer of a route that `scope` guards, inside the bearer check: with
/// `Options::scopes` given and `scope` not among them, 403. The real
/// gateway's is empty (no Content-Type either); the spec dialect answers
/// with its error shape, naming the scope.
pub async fn require_scope(
    State((s, scope)): State<(Arc<Shared>, Scope)>,
    req: Request,
    next: Next,
) -> Response {
    match &s.opts.scopes {
        Some(scopes) if !scopes.contains(&scope) => match s.opts.dialect {
            Dialect::Ylem => StatusCode::FORBIDDEN.into_response(),
            Dialect::Spec => api_error(
                StatusCode::FORBIDDEN,
                vec![format!("the token lacks the scope {}", scope.as_str())],
            ),
        },
        _ => next.run(req).await,
    }
}

/// `application/x-www-form-urlencoded` pairs (`+` is a space here, unlike
/// in paths); a later key wins.
fn parse_form(s: &str) -> HashMap<String, String> {
    form_urlencoded::parse(s.as_bytes()).into_owned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_decoding() {
        let m = parse_form("a=b%20c+d&grant_type=client_credentials&x");
        assert_eq!(m["a"], "b c d");
        assert_eq!(m["grant_type"], "client_credentials");
        assert_eq!(m["x"], "");
    }
}
