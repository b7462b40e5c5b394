//! The server's TLS certificate as the client's own transport judges it:
//! a handshake over a connection the caller made, verified by the same
//! platform verifier (the system's trust store, or the PEM file or
//! directory its environment names), recording the verdict, the end of the
//! certificate's validity and whether its name matches the host. Nothing
//! is sent after the handshake.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use rustls_platform_verifier::Verifier;
use tokio::net::TcpStream;
use tokio_rustls::rustls;
use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};

use crate::error::{Error, ErrorKind, Result};

/// What the handshake found.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TlsFacts {
    /// The verifier's verdict on the certificate chain.
    pub verdict: Verdict,
    /// When the server's certificate stops being valid, if it was read.
    pub not_after: Option<DateTime<Utc>>,
    /// Whether the certificate names the host (checked whatever the chain).
    pub name_matches: Option<bool>,
    /// The protocol version agreed, when the handshake completed.
    pub version: Option<String>,
}

impl TlsFacts {
    /// `verdict`, and nothing else known yet.
    pub fn new(verdict: Verdict) -> Self {
        TlsFacts {
            verdict,
            not_after: None,
            name_matches: None,
            version: None,
        }
    }
}

/// The verdict on the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The chain verifies with the trust store in use.
    Trusted,
    /// No CA in the trust store issued it.
    UnknownIssuer,
    /// The certificate (or one in its chain) has expired.
    Expired,
    /// The certificate does not name the host.
    NameMismatch,
    /// Anything else, in the TLS library's words.
    Other(String),
}

/// Shake hands over `stream` as the client's transport would for `host`,
/// within `within`.
pub async fn handshake(stream: TcpStream, host: &str, within: Duration) -> Result<TlsFacts> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let inner = Verifier::new(provider.clone())
        .map_err(|e| Error::internal(format!("cannot set up TLS: {e}")))?;
    let seen = Arc::new(Seen::default());
    let recorder = Arc::new(Recorder {
        inner,
        seen: seen.clone(),
    });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::internal(format!("cannot set up TLS: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(recorder)
        .with_no_client_auth();
    let name = ServerName::try_from(host.to_string())
        .map_err(|e| Error::new(ErrorKind::Invalid, format!("{host}: {e}")))?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let shaken = tokio::time::timeout(within, connector.connect(name.clone(), stream)).await;
    let version = match &shaken {
        Ok(Ok(tls)) => tls.get_ref().1.protocol_version().map(|v| format!("{v:?}")),
        _ => None,
    };
    let verdict = seen.verdict.lock().ok().and_then(|v| v.clone());
    let cert = seen.cert.lock().ok().and_then(|c| c.clone());
    let Some(verdict) = verdict else {
        // The verifier was never asked: the handshake failed before.
        return Err(match shaken {
            Err(_) => Error::network(format!("no TLS handshake within {} s", within.as_secs())),
            Ok(Err(e)) => Error::network(format!("TLS handshake failed: {e}")),
            Ok(Ok(_)) => Error::internal("TLS handshake without a certificate"),
        });
    };
    let name_matches = cert.as_ref().and_then(|c| name_matches(c, &name));
    Ok(TlsFacts {
        not_after: cert.as_deref().and_then(super::der::not_after),
        name_matches,
        verdict,
        version,
    })
}

/// Whether the end-entity certificate `der` is valid for `name`.
fn name_matches(der: &[u8], name: &ServerName<'_>) -> Option<bool> {
    let der = CertificateDer::from(der);
    let parsed = rustls::server::ParsedCertificate::try_from(&der).ok()?;
    Some(rustls::client::verify_server_name(&parsed, name).is_ok())
}

/// What the verifier saw.
#[derive(Debug, Default)]
struct Seen {
    cert: Mutex<Option<Vec<u8>>>,
    verdict: Mutex<Option<Verdict>>,
}

/// The platform verifier, recording what it was shown and what it said.
#[derive(Debug)]
struct Recorder {
    inner: Verifier,
    seen: Arc<Seen>,
}

fn verdict_of(e: &rustls::Error) -> Verdict {
    match e {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::UnknownIssuer => Verdict::UnknownIssuer,
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => Verdict::Expired,
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                Verdict::NameMismatch
            }
            other => Verdict::Other(format!("{other:?}")),
        },
        other => Verdict::Other(other.to_string()),
    }
}

impl ServerCertVerifier for Recorder {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        if let Ok(mut c) = self.seen.cert.lock() {
            *c = Some(end_entity.to_vec());
        }
        let r = self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        );
        if let Ok(mut v) = self.seen.verdict.lock() {
            *v = Some(match &r {
                Ok(_) => Verdict::Trusted,
                Err(e) => verdict_of(e),
            });
        }
        r
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}
