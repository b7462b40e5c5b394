//! Where exported runs go and in what form: OTLP to a receiver (protobuf
//! or JSON) or OTLP JSON lines on stdout; OpenLineage events to a
//! receiver or as JSON lines on stdout. The receiver, its headers and the
//! encoding come from the flags and the standard variables, resolved once
//! before anything is read; header values are secrets from the start.

use std::time::Duration;

use bytes::Bytes;

use crate::commands::export::args::{LineageArgs, OtlpArgs, Protocol};
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use ylem_client::Secret;
use ylem_client::export::otlp::{self, Partial, Service};
use ylem_client::export::send::{Receiver, ReceiverConfig};
use ylem_client::export::{FinishedRun, lineage};

/// Runs per OTLP request: bounds a request's body (a run of many tasks
/// is many spans) and what one refused request costs.
const RUNS_PER_REQUEST: usize = 32;

/// The destination of one export.
pub enum Sink {
    /// OTLP, to a receiver or (`None`) as JSON lines on stdout.
    Otlp {
        to: Option<(Receiver, otlp::Protocol)>,
        service: Service,
    },
    /// OpenLineage events, to a receiver or as JSON lines on stdout.
    Lineage {
        to: Option<Receiver>,
        source: lineage::Source,
    },
}

/// What a delivery did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Delivered {
    pub runs: usize,
    /// Spans or events.
    pub items: usize,
    /// Requests that were acknowledged (with their retries counted apart).
    pub requests: usize,
    pub attempts: usize,
    /// Spans a receiver said it rejected.
    pub rejected: i64,
}

impl Delivered {
    pub fn add(&mut self, o: Delivered) {
        self.runs += o.runs;
        self.items += o.items;
        self.requests += o.requests;
        self.attempts += o.attempts;
        self.rejected += o.rejected;
    }
}

fn env(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.trim().is_empty())
}

impl Sink {
    pub fn otlp(ctx: &Context, a: &OtlpArgs) -> Result<Sink> {
        let service = Service {
            name: env("OTEL_SERVICE_NAME").unwrap_or_else(|| otlp::DEFAULT_SERVICE.to_string()),
            address: None,
        };
        let protocol = match (
            a.protocol,
            env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
                .or_else(|| env("OTEL_EXPORTER_OTLP_PROTOCOL")),
        ) {
            (Some(Protocol::Json), _) => otlp::Protocol::Json,
            (Some(Protocol::Protobuf), _) => otlp::Protocol::Protobuf,
            (None, Some(p)) => match p.trim() {
                "http/protobuf" => otlp::Protocol::Protobuf,
                "http/json" => otlp::Protocol::Json,
                other => {
                    return Err(Error::usage(format!(
                        "OTEL_EXPORTER_OTLP_PROTOCOL={other}: ylemctl speaks OTLP over HTTP: http/protobuf or http/json"
                    )));
                }
            },
            (None, None) => otlp::Protocol::Protobuf,
        };
        // The flag, then the signal's own URL (as is), then the base URL.
        let url = match (&a.endpoint, env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) {
            (Some(u), _) => Some(with_path(u, "/v1/traces", "--endpoint")?),
            (None, Some(u)) => Some(checked(&u, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")?),
            (None, None) => match env("OTEL_EXPORTER_OTLP_ENDPOINT") {
                Some(u) => Some(with_path(&u, "/v1/traces", "OTEL_EXPORTER_OTLP_ENDPOINT")?),
                None => None,
            },
        };
        let to = match url {
            Some(url) => {
                let mut cfg = config(ctx, url)?;
                cfg.headers = headers()?;
                if let Some(ms) = env("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT")
                    .or_else(|| env("OTEL_EXPORTER_OTLP_TIMEOUT"))
                {
                    let ms: u64 = ms.trim().parse().map_err(|_| {
                        Error::usage(format!(
                            "OTEL_EXPORTER_OTLP_TIMEOUT={ms}: milliseconds, a whole number"
                        ))
                    })?;
                    cfg.timeout = Duration::from_millis(ms.max(1));
                }
                Some((receiver(cfg)?, protocol))
            }
            None => None,
        };
        Ok(Sink::Otlp { to, service })
    }

    pub fn lineage(ctx: &Context, a: &LineageArgs, service_url: &str) -> Result<Sink> {
        let namespace = match a.namespace.clone().or_else(|| env("OPENLINEAGE_NAMESPACE")) {
            Some(n) => n,
            None => reqwest::Url::parse(service_url)
                .ok()
                .and_then(|u| {
                    u.host_str().map(|h| match u.port() {
                        Some(p) => format!("{h}:{p}"),
                        None => h.to_string(),
                    })
                })
                .unwrap_or_else(|| "ylem".to_string()),
        };
        let source = lineage::Source {
            namespace,
            producer: PRODUCER.to_string(),
        };
        let url = match a.url.clone().or_else(|| env("OPENLINEAGE_URL")) {
            Some(u) => Some(with_path(&u, "/api/v1/lineage", "--url")?),
            None => None,
        };
        let to = match url {
            Some(url) => {
                let mut cfg = config(ctx, url)?;
                if let Some(k) = env("OPENLINEAGE_API_KEY") {
                    let k = crate::redact::secret(k.trim().to_string());
                    cfg.headers.push((
                        "authorization".to_string(),
                        crate::redact::secret(format!("Bearer {}", k.expose())),
                    ));
                }
                Some(receiver(cfg)?)
            }
            None => None,
        };
        Ok(Sink::Lineage { to, source })
    }

    /// Runs per delivery (read, sent and acknowledged together, so memory
    /// holds only these): an OTLP request's, or one run's two events.
    pub fn batch(&self) -> usize {
        match self {
            Sink::Otlp { .. } => RUNS_PER_REQUEST,
            Sink::Lineage { .. } => 1,
        }
    }

    /// Where the runs go, in words (no secret: a URL without userinfo).
    pub fn describe(&self) -> String {
        match self {
            Sink::Otlp {
                to: Some((r, _)), ..
            }
            | Sink::Lineage { to: Some(r), .. } => r.url().to_string(),
            _ => "standard output".to_string(),
        }
    }

    /// Hand `runs` on; `Ok` once every one was acknowledged (or written).
    pub async fn deliver(&self, ctx: &Context, runs: &[FinishedRun]) -> Result<Delivered> {
        let mut d = Delivered::default();
        match self {
            Sink::Otlp { to: None, service } => {
                for r in runs {
                    let mut line = otlp::json_line(r, service);
                    line.push('\n');
                    ctx.write_out(line.as_bytes())?;
                    d.runs += 1;
                    d.items += 1 + r.tasks.len();
                }
            }
            Sink::Otlp {
                to: Some((rx, protocol)),
                service,
            } => {
                for chunk in runs.chunks(RUNS_PER_REQUEST) {
                    let req = otlp::request(chunk, service);
                    let body = Bytes::from(otlp::encode(&req, *protocol));
                    let ack = rx
                        .post(protocol.content_type(), body)
                        .await
                        .map_err(receiver_error)?;
                    d.runs += chunk.len();
                    d.items += chunk.iter().map(|r| 1 + r.tasks.len()).sum::<usize>();
                    d.requests += 1;
                    d.attempts += ack.attempts as usize;
                    if let Some(Partial {
                        rejected_spans,
                        message,
                    }) = otlp::partial_success(ack.content_type.as_deref(), &ack.body)
                    {
                        d.rejected += rejected_spans;
                        ctx.ui.warn(&format!(
                            "{} rejected {rejected_spans} of the spans sent{}",
                            rx.url(),
                            match message.is_empty() {
                                true => String::new(),
                                false => format!(": {}", crate::output::table::escape(&message)),
                            }
                        ));
                    }
                }
            }
            Sink::Lineage { to, source } => {
                for r in runs {
                    for e in lineage::events(r, source) {
                        let mut line = e.to_string();
                        match to {
                            None => {
                                line.push('\n');
                                ctx.write_out(line.as_bytes())?;
                            }
                            Some(rx) => {
                                let ack = rx
                                    .post("application/json", Bytes::from(line))
                                    .await
                                    .map_err(receiver_error)?;
                                d.requests += 1;
                                d.attempts += ack.attempts as usize;
                            }
                        }
                        d.items += 1;
                    }
                    d.runs += 1;
                }
            }
        }
        Ok(d)
    }
}

/// The `producer` of the OpenLineage events (a URI naming the software).
const PRODUCER: &str = concat!("urn:ylemctl:", env!("CARGO_PKG_VERSION"));

/// A receiver's error in the CLI's words: one that refuses the data (a
/// 4xx, a 5xx) is the other side's answer (exit 5), not a usage error of
/// ours; one that cannot be reached after its retries is exit 6; one that
/// refuses the credentials exit 3. The hints the service's errors get
/// (its flags) do not fit a receiver: its own are given.
fn receiver_error(e: ylem_client::Error) -> Error {
    use ylem_client::ErrorKind as K;
    let (kind, hint) = match e.kind() {
        K::Network | K::Timeout => (
            Kind::Network,
            "is the receiver up and its URL right? (OTEL_EXPORTER_OTLP_ENDPOINT, --endpoint, --url)",
        ),
        K::Auth => (
            Kind::Auth,
            "the receiver wants other credentials: OTEL_EXPORTER_OTLP_HEADERS, or OPENLINEAGE_API_KEY",
        ),
        K::Internal => (Kind::Internal, ""),
        _ => (Kind::Server, ""),
    };
    let err = Error::new(kind, crate::redact::scrub(e.message()));
    match hint.is_empty() {
        true => err,
        false => err.with_hint(hint),
    }
}

fn config(ctx: &Context, url: String) -> Result<ReceiverConfig> {
    let mut cfg = ReceiverConfig::new(url);
    cfg.redactor = crate::redact::process().clone();
    cfg.user_agent = concat!("ylemctl/", env!("CARGO_PKG_VERSION")).to_string();
    let _ = ctx;
    Ok(cfg)
}

fn receiver(cfg: ReceiverConfig) -> Result<Receiver> {
    Receiver::new(cfg).map_err(Error::from)
}

/// A URL as given, checked: http or https, parsed.
fn checked(u: &str, what: &str) -> Result<String> {
    let parsed = reqwest::Url::parse(u.trim()).map_err(|_| {
        Error::usage(format!(
            "{what}: not a URL: {}",
            crate::redact::scrub(&shown(u))
        ))
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Error::usage(format!(
            "{what}: an http or https URL, not {}:",
            parsed.scheme()
        )));
    }
    Ok(u.trim().to_string())
}

/// A base URL with `path` appended when it has no path of its own (or a
/// path that does not end in it already), as OTEL_EXPORTER_OTLP_ENDPOINT
/// is taken.
fn with_path(u: &str, path: &str, what: &str) -> Result<String> {
    let u = checked(u, what)?;
    let mut parsed = reqwest::Url::parse(&u).expect("checked");
    let p = parsed.path().trim_end_matches('/').to_string();
    if !p.ends_with(path) {
        parsed.set_path(&format!("{p}{path}"));
    }
    Ok(parsed.to_string())
}

/// A URL for a message: no userinfo, no query.
fn shown(u: &str) -> String {
    match reqwest::Url::parse(u.trim()) {
        Ok(mut p) => {
            let _ = p.set_username("");
            let _ = p.set_password(None);
            p.set_query(None);
            p.to_string()
        }
        Err(_) => "(unparsable)".to_string(),
    }
}

/// `OTEL_EXPORTER_OTLP_TRACES_HEADERS` and `OTEL_EXPORTER_OTLP_HEADERS`:
/// `key=value` pairs, comma separated, values percent-decoded (the
/// signal's own win on a key both name). Every value is a secret from
/// the moment it is read; a malformed pair is named by its key only.
fn headers() -> Result<Vec<(String, Secret)>> {
    let mut out: Vec<(String, Secret)> = Vec::new();
    for var in [
        "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
        "OTEL_EXPORTER_OTLP_HEADERS",
    ] {
        let Some(raw) = env(var) else { continue };
        for pair in raw.split(',').filter(|p| !p.trim().is_empty()) {
            let Some((k, v)) = pair.split_once('=') else {
                return Err(Error::usage(format!(
                    "{var}: each header is key=value (one has no '='); the values are not shown"
                )));
            };
            let k = k.trim().to_ascii_lowercase();
            if k.is_empty()
                || !k
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
            {
                return Err(Error::usage(format!(
                    "{var}: a header name that is not a token"
                )));
            }
            let v = crate::redact::secret(percent_decode(v.trim()));
            if !out.iter().any(|(have, _)| *have == k) {
                out.push((k, v));
            }
        }
    }
    Ok(out)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_url_gets_the_signal_path_once() {
        let w = |u| with_path(u, "/v1/traces", "x").unwrap();
        assert_eq!(
            w("http://127.0.0.1:4318"),
            "http://127.0.0.1:4318/v1/traces"
        );
        assert_eq!(
            w("http://127.0.0.1:4318/"),
            "http://127.0.0.1:4318/v1/traces"
        );
        assert_eq!(w("http://h/otlp"), "http://h/otlp/v1/traces");
        assert_eq!(w("http://h/v1/traces"), "http://h/v1/traces");
        assert!(with_path("ftp://h", "/v1/traces", "x").is_err());
    }

    #[test]
    fn header_values_are_percent_decoded() {
        assert_eq!(percent_decode("Basic%20abc%3D"), "Basic abc=");
        assert_eq!(percent_decode("100%"), "100%");
    }
}
