//! Credentials stay with their service (both files share the helpers
//! here): `refusal` — a profile logged in to one sandbox sends nothing to
//! another base URL, the same URL written differently is the same service,
//! environment credentials go to the base URL in effect, `auth status` and
//! `login` keep the rule; `traffic` — a cross-host redirect carries no token
//! and no secret, a token cached for one URL is never used for another, and
//! plain http to another machine is warned about; `secret` — the stored
//! secret is sealed with its service, as the token is.

mod refusal;
mod secret;
mod traffic;

use std::path::Path;

use crate::common::login::ylem_in;
use crate::common::sandbox::Sandbox;
use crate::common::*;

/// Log profile `default` in to `sb` with the file store.
pub fn login_to(dir: &Path, base: &str, sb: &Sandbox) -> Out {
    ylem_in(
        dir,
        &[
            "login",
            "--base-url",
            base,
            "--client-id",
            &sb.client_id,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{}\n", sb.secret)),
        &[],
    )
}

/// The values the profile's store holds (secret, access and refresh token):
/// none may ever be shown.
pub fn stored_values(dir: &Path) -> Vec<String> {
    let creds = dir.join("credentials");
    // The secret is stored sealed with its service: the value is inside.
    let sealed = std::fs::read_to_string(creds.join("default.secret.json")).unwrap();
    let secret = serde_json::from_str::<serde_json::Value>(&sealed)
        .ok()
        .and_then(|v| v["client_secret"].as_str().map(str::to_string))
        .unwrap_or(sealed);
    let mut out = vec![secret];
    let token = std::fs::read_to_string(creds.join("default.token.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&token).unwrap();
    for k in ["access_token", "refresh_token"] {
        out.extend(v[k].as_str().map(str::to_string));
    }
    assert_eq!(out.len(), 3, "{token}");
    out
}

pub fn assert_hidden(o: &Out, values: &[String]) {
    for v in values {
        assert!(
            !o.all().contains(v.trim()),
            "a secret was shown:\n{}",
            o.all()
        );
    }
}

/// Run with `--base-url URL` (`env` false) or `YLEM_BASE_URL=URL`.
pub fn against(dir: &Path, url: &str, by_env: bool, args: &[&str]) -> Out {
    if by_env {
        ylem_in(dir, args, None, &[("YLEM_BASE_URL", url)])
    } else {
        let mut a = args.to_vec();
        a.extend(["--base-url", url]);
        ylem_in(dir, &a, None, &[])
    }
}
