//! The server's clock against this machine's, read from the `Date` header
//! of one unauthenticated request. Windows are sent in UTC without a zone,
//! so a clock far off asks for the wrong hours.

use chrono::{DateTime, NaiveDateTime, Utc};

use crate::error::Result;
use crate::http::Transport;

/// The path asked: any answer carries a `Date`, and this one needs no
/// token and starts nothing.
const PATH: &str = "/v1/";

/// The server's clock as one answer showed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerClock {
    /// The server's `Date`.
    pub server: DateTime<Utc>,
    /// This machine's time halfway through the request.
    pub local: DateTime<Utc>,
    /// `server - local` in whole seconds (`Date` has no finer grain):
    /// positive when the server is ahead.
    pub skew_secs: i64,
}

/// What one answer said of the server's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// Its `Date`, read.
    Clock(ServerClock),
    /// No `Date` header (a gateway may strip it): the skew is unknown,
    /// though the service answered.
    NoDate,
    /// A `Date` that does not parse as HTTP's date: what it held.
    Unreadable(String),
}

/// Ask the server once and compare its `Date` with this machine's clock.
/// An answer without a readable `Date` is not an error: the request went
/// through, only the skew is unknown.
pub async fn server_clock(t: &Transport) -> Result<Said> {
    let before = Utc::now();
    let (_, date) = t.probe(PATH).await?;
    let after = Utc::now();
    let local = before + (after - before) / 2;
    let Some(date) = date else {
        return Ok(Said::NoDate);
    };
    let Some(server) = parse_http_date(&date) else {
        return Ok(Said::Unreadable(date));
    };
    Ok(Said::Clock(ServerClock {
        server,
        local,
        skew_secs: ((server - local).num_milliseconds() as f64 / 1000.0).round() as i64,
    }))
}

/// HTTP's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 5.6.7).
pub(crate) fn parse_http_date(s: &str) -> Option<DateTime<Utc>> {
    NaiveDateTime::parse_from_str(s.trim(), "%a, %d %b %Y %H:%M:%S GMT")
        .ok()
        .map(|t| t.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_dates() {
        let t = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(t.to_rfc3339(), "1994-11-06T08:49:37+00:00");
        assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), None);
        assert_eq!(parse_http_date(""), None);
    }
}
