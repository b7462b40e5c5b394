//! When a request is sent again and after how long: which failures a GET
//! or token request is retried on and which a run start is, backoff with
//! jitter, and `Retry-After` in seconds or as an HTTP date.

use std::time::Duration;

use reqwest::{Method, Response, StatusCode};

/// Whether a request may be sent again after a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// GET and token requests: connection errors, timeouts, 429, 502-504,
    /// for GET also 500 (the real gateway's answer when an upstream
    /// service restarts), and a body that stalls or is cut off.
    Idempotent,
    /// A run start: only when the connection was refused before anything
    /// was sent, because every POST that arrives starts a new run.
    NotSent,
}

/// Backoff with jitter: a random wait between half and all of
/// 250 ms × 2^attempt, at most 8 s.
pub fn backoff(attempt: u32) -> Duration {
    let cap = 250u64.saturating_mul(1 << attempt.min(5)).min(8_000);
    Duration::from_millis(cap / 2 + fastrand::u64(..=cap / 2))
}

/// How long to wait before sending again after an error status, if at all.
pub fn retry_wait_for_status(
    resp: &Response,
    method: &Method,
    retry: Retry,
    attempt: u32,
    max: u32,
) -> Option<Duration> {
    if retry != Retry::Idempotent || attempt >= max {
        return None;
    }
    match resp.status() {
        StatusCode::TOO_MANY_REQUESTS => {
            Some(retry_after(resp).unwrap_or_else(|| backoff(attempt)))
        }
        StatusCode::BAD_GATEWAY | StatusCode::SERVICE_UNAVAILABLE | StatusCode::GATEWAY_TIMEOUT => {
            Some(retry_after(resp).unwrap_or_else(|| backoff(attempt)))
        }
        // Not for the token endpoint: the real server answers 500 for an
        // unknown client id, which no retry mends.
        StatusCode::INTERNAL_SERVER_ERROR if *method == Method::GET => {
            Some(retry_after(resp).unwrap_or_else(|| backoff(attempt)))
        }
        _ => None,
    }
}

/// `Retry-After` in seconds or as an HTTP date, capped at 2 minutes.
pub fn retry_after(resp: &Response) -> Option<Duration> {
    retry_after_asked(resp).map(|d| d.min(Duration::from_secs(120)))
}

/// `Retry-After` as the service asked, uncapped.
pub fn retry_after_asked(resp: &Response) -> Option<Duration> {
    let v = resp
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?;
    parse_retry_after(v, chrono::Utc::now())
}

/// `Retry-After`'s value in seconds or as an HTTP date at `now`.
pub(crate) fn parse_retry_after(v: &str, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let v = v.trim();
    let secs = match v.parse::<u64>() {
        Ok(s) => s,
        // `Wed, 21 Oct 2015 07:28:00 GMT` (IMF-fixdate) is RFC 2822 with GMT;
        // a date in the past means now.
        Err(_) => {
            let at = chrono::DateTime::parse_from_rfc2822(v).ok()?;
            (at.with_timezone(&chrono::Utc) - now).num_seconds().max(0) as u64
        }
    };
    Some(Duration::from_secs(secs))
}

/// A body that stalled or was cut off after a successful status: the
/// request is repeated where it may be, like one that failed before its
/// headers.
pub fn retry_wait_for_body(retry: Retry, attempt: u32, max: u32) -> Option<Duration> {
    (retry == Retry::Idempotent && attempt < max).then(|| backoff(attempt))
}

pub fn retry_wait_for_error(
    e: &reqwest::Error,
    retry: Retry,
    attempt: u32,
    max: u32,
) -> Option<Duration> {
    if attempt >= max {
        return None;
    }
    let retryable = match retry {
        Retry::Idempotent => e.is_connect() || e.is_timeout() || e.is_request(),
        Retry::NotSent => e.is_connect() && !e.is_timeout(),
    };
    retryable.then(|| backoff(attempt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        let now = chrono::DateTime::parse_from_rfc3339("2015-10-21T07:27:50Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        assert_eq!(parse_retry_after("3", now), Some(Duration::from_secs(3)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        // As asked: `retry_after` caps it, and a wait past the cap is
        // not done at all (the transport's `MAX_ASKED_WAITS`).
        assert_eq!(
            parse_retry_after("9999", now),
            Some(Duration::from_secs(9999))
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        assert!(backoff(0) <= Duration::from_millis(250));
        assert!(backoff(10) <= Duration::from_secs(8));
        assert!(backoff(3) >= Duration::from_millis(1000));
    }
}
