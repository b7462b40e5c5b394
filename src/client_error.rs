//! The client's errors in the CLI's words: `ylem_client::Error`'s kind as
//! ours (and so an exit code), its cause as a hint naming our commands,
//! flags and variables, and its message where it names a time limit by
//! the flag that sets it. Also the way back, for a token provider of ours
//! (a stored profile) whose errors travel through the client whole.

use std::sync::Arc;

use ylem_client::{Cause, ErrorKind};

use crate::error::{Error, Kind};

/// A 401 to a token issued a moment ago: the credentials work (the token
/// endpoint issued it), so it is the plan check, as `doctor` says it.
pub const PLAN_HINT: &str = "ask the organisation's administrator to switch the API on in its plan (or check the base URL: another service's refuses these tokens)";

/// A run start that failed after it may have reached the service.
pub const MAY_HAVE_STARTED: &str = "the run may have started anyway: check 'ylemctl logs' or 'ylemctl last-run' before starting it again";

impl From<ylem_client::Error> for Error {
    fn from(e: ylem_client::Error) -> Self {
        if let Cause::Provider(inner) = e.cause()
            && let Some(ours) = inner.downcast_ref::<Error>()
        {
            return ours.clone();
        }
        let kind = match e.kind() {
            ErrorKind::Auth => Kind::Auth,
            ErrorKind::NotFound => Kind::NotFound,
            ErrorKind::Server => Kind::Server,
            ErrorKind::Network => Kind::Network,
            ErrorKind::Timeout => Kind::Timeout,
            ErrorKind::Invalid => Kind::Usage,
            ErrorKind::Internal => Kind::Internal,
            // A kind a newer client names: a failure of the client's.
            _ => Kind::Internal,
        };
        let hint = if e.may_have_started() {
            Some(MAY_HAVE_STARTED)
        } else {
            hint(e.cause())
        };
        Error {
            kind,
            message: message(&e),
            hint: hint.map(str::to_string),
            http_status: e.status(),
            server_body: e.server_body().map(str::to_string),
            details: Vec::new(),
        }
    }
}

/// Ours, handed through the client by a token provider: kept whole.
impl From<Error> for ylem_client::Error {
    fn from(e: Error) -> Self {
        let kind = match e.kind {
            Kind::Usage => ErrorKind::Invalid,
            Kind::Auth => ErrorKind::Auth,
            Kind::NotFound => ErrorKind::NotFound,
            Kind::Server => ErrorKind::Server,
            Kind::Network => ErrorKind::Network,
            Kind::Timeout => ErrorKind::Timeout,
            _ => ErrorKind::Internal,
        };
        let mut out = ylem_client::Error::new(kind, e.message.clone());
        if let Some(s) = e.http_status {
            out = out.with_status(s);
        }
        if let Some(b) = &e.server_body {
            out = out.with_server_body_text(b.clone());
        }
        out.with_cause(Cause::Provider(Arc::new(e)))
    }
}

/// The message, with the time limits named by their flags.
fn message(e: &ylem_client::Error) -> String {
    match e.cause() {
        Cause::ConnectTimeout { .. } => e
            .message()
            .replace("within the connect timeout", "within --connect-timeout"),
        Cause::Stalled => e
            .message()
            .replace("no data for the read timeout", "no data for --timeout"),
        Cause::WaitBeyondDeadline => e.message().replace(
            "longer than the deadline allows",
            "longer than --max-time allows",
        ),
        _ => e.message().to_string(),
    }
}

/// What to do about it.
fn hint(cause: &Cause) -> Option<&'static str> {
    Some(match cause {
        Cause::CredentialsRejected => "check the client id and secret, or run 'ylemctl login'",
        Cause::Unauthorized => {
            "run 'ylemctl login', or check YLEM_TOKEN / YLEM_CLIENT_ID and YLEM_CLIENT_SECRET"
        }
        Cause::FixedTokenRejected => "the token given in YLEM_TOKEN was rejected: get a new one",
        Cause::FreshTokenRejected => PLAN_HINT,
        Cause::ForbiddenStats => {
            "the ID belongs to another organisation, or the token lacks the stats:read scope"
        }
        Cause::ForbiddenRunStart => {
            "the pipeline is paused, or the token lacks the pipelines:run scope"
        }
        Cause::Forbidden => "the credentials lack the scope for this",
        Cause::NotFoundWorkflow => {
            "check the ID; the server may not offer workflow endpoints (the open-source Ylem server has none): try 'pipeline'"
        }
        Cause::NotFoundRunStart => {
            "the pipeline is unknown, inactive or a template, or has no initial task: check the ID"
        }
        Cause::NotFoundTokenEndpoint => {
            "the service's token endpoint is not under this base URL: check the base URL and its path"
        }
        Cause::NotFound => "check the ID and the base URL",
        Cause::UnknownClient => {
            "the Ylem server answers 500 server_error for an unknown client id: check the client id (YLEM_CLIENT_ID, or 'ylemctl login --client-id')"
        }
        Cause::TokenEndpointFailed => {
            "the Ylem server answers 500 for an unknown client id: check it"
        }
        Cause::RateLimited => {
            "wait that long and run again, or lower --concurrency; --retries and --max-time allow longer waits"
        }
        Cause::WaitBeyondCap => {
            "the service asks for longer waits than ylemctl waits in all for one request (2 minutes): try again later"
        }
        Cause::RateLimitedRunStart => {
            "the run was not started: wait that long and start it again (a run start is never retried by ylemctl), or lower --concurrency"
        }
        Cause::WaitBeyondDeadline => {
            "the wait asked for is longer than --max-time leaves: try again later"
        }
        Cause::ConnectTimeout { .. } => {
            "check the base URL and that the service is up, or raise --connect-timeout"
        }
        Cause::NoResponseLog => {
            "the server builds the whole log before its first byte: narrow the window or raise --timeout"
        }
        Cause::NoResponse | Cause::Stalled | Cause::NoProgress => {
            "raise --timeout if the service is slow"
        }
        Cause::UntrustedCertificate => {
            "the server's CA is not in the trust store: add it to the system's store, or point SSL_CERT_FILE at a PEM file holding it"
        }
        Cause::ConnectFailed => "check the base URL and that the service is up",
        Cause::ProxyFailed { .. } => {
            "check the proxy (is it up, does it take this host, its user and password), or bypass it with NO_PROXY"
        }
        Cause::TooLarge => {
            "no answer of this service is that large: check the base URL, or a proxy in between"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_providers_error_comes_back_whole() {
        let ours = Error::auth("no secret").with_hint("run 'ylemctl login'");
        let back = Error::from(ylem_client::Error::from(ours));
        assert_eq!(back.hint.as_deref(), Some("run 'ylemctl login'"));
        assert_eq!(back.kind, Kind::Auth);
    }

    #[test]
    fn a_run_start_that_may_have_started_says_so_whatever_the_cause() {
        let e = ylem_client::Error::network("x")
            .with_cause(Cause::ConnectFailed)
            .with_may_have_started();
        assert_eq!(Error::from(e).hint.as_deref(), Some(MAY_HAVE_STARTED));
    }

    #[test]
    fn time_limits_are_named_by_their_flags() {
        let e = ylem_client::Error::network("the response stalled: no data for the read timeout")
            .with_cause(Cause::Stalled);
        assert_eq!(
            Error::from(e).message,
            "the response stalled: no data for --timeout"
        );
    }
}
