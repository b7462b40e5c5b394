//! Reading a response body within bounds, as part of the request's attempt
//! (so that a body that stalls or is cut off can be asked for again): a
//! body read whole (token, statistics, last-run, aggregated, run start)
//! stops at `MAX_WHOLE`; a streamed one (a log) is handed on after its
//! first chunk, the last point where nothing of it can have been shown.

use bytes::Bytes;
use reqwest::{Method, Response};

use crate::error::{Cause, Error};

/// The most a body read whole may hold: far above any real answer (a
/// year of daily aggregates is tens of KB, a statistics answer a few
/// hundred bytes), and small enough that a command reading an endless body
/// peaks well under 32 MB (the debug binary itself is 22-24 MB resident;
/// 8 MiB took it to 33 MB once chrono-tz's zones were in, 16 MiB to 37 MB).
pub const MAX_WHOLE: usize = 4 << 20;

/// How reading a body failed.
pub enum BodyError {
    /// Larger than allowed: never worth asking again.
    TooLarge(Error),
    /// Stalled (no data for the read timeout) or cut off: worth asking again
    /// where the request may be repeated.
    Read(reqwest::Error),
}

/// The whole body, chunk by chunk, refused as soon as it would pass `cap`
/// (at once when its `Content-Length` says so).
pub async fn read_whole(
    mut resp: Response,
    cap: usize,
    method: &Method,
    path: &str,
) -> Result<Bytes, BodyError> {
    let declared = resp.content_length();
    if declared.is_some_and(|n| n > cap as u64) {
        return Err(BodyError::TooLarge(too_large(cap, method, path)));
    }
    // A declared length is trusted for the first allocation only up to the
    // cap (pages are touched only as bytes arrive).
    let mut out = Vec::with_capacity(declared.unwrap_or(0) as usize);
    while let Some(chunk) = resp.chunk().await.map_err(BodyError::Read)? {
        if out.len() + chunk.len() > cap {
            return Err(BodyError::TooLarge(too_large(cap, method, path)));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(out))
}

/// The response with its first chunk read (`None` for an empty body).
pub async fn first_chunk(mut resp: Response) -> Result<(Response, Option<Bytes>), BodyError> {
    let first = resp.chunk().await.map_err(BodyError::Read)?;
    Ok((resp, first))
}

/// The error for a body over the bound: the size and the endpoint, never
/// the query (a token request's may hold a secret).
pub fn too_large(cap: usize, method: &Method, path: &str) -> Error {
    let shown = path.split('?').next().unwrap_or("");
    Error::server(format!(
        "the response to {method} {shown} is larger than {}: not read further",
        size(cap)
    ))
    .with_cause(Cause::TooLarge)
}

/// A size for a person: `16 MiB`, `64 KiB`, `512 B`.
pub fn size(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} B"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_a_person_writes_them() {
        assert_eq!(size(16 << 20), "16 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(1000), "1000 B");
    }

    #[test]
    fn the_error_names_the_size_and_the_path_without_its_query() {
        let e = too_large(MAX_WHOLE, &Method::POST, "/v1/oauth/token?client_secret=s");
        assert_eq!(e.kind, crate::error::ErrorKind::Server);
        assert!(e.message.contains("4 MiB") && e.message.contains("/v1/oauth/token"));
        assert!(!e.message.contains("client_secret"), "{}", e.message);
    }
}
