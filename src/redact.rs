//! The process's `Redactor`: every secret ylemctl is given, reads from a
//! store or fetches is held in it, and every client gets it, so that the
//! CLI's own output (its errors, the panic hook, --jq's messages, doctor's
//! report) is scrubbed of them as the clients' is. The client library has
//! no process-wide state; a program does, here.

use std::sync::OnceLock;

use ylem_client::Redactor;
use ylem_client::Secret;
use ylem_client::auth::token::CachedToken;

static PROCESS: OnceLock<Redactor> = OnceLock::new();

/// The one redactor of this process.
pub fn process() -> &'static Redactor {
    PROCESS.get_or_init(Redactor::new)
}

/// `text` with every secret of this process replaced by `***`.
pub fn scrub(text: &str) -> String {
    process().scrub(text)
}

/// `s`, held by the process's redactor.
pub fn hold(s: Secret) -> Secret {
    process().hold(s)
}

/// A secret made from `value`, held by the process's redactor.
pub fn secret(value: impl Into<String>) -> Secret {
    hold(Secret::new(value))
}

/// A cached token read from a store, its tokens held.
pub fn hold_token(mut c: CachedToken) -> CachedToken {
    c.access = hold(c.access);
    c.refresh = c.refresh.map(hold);
    c
}
