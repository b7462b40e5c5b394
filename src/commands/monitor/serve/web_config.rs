//! `metrics serve --web-config-file`: the Prometheus exporter-toolkit's web
//! configuration (`tls_server_config`, `basic_auth_users` with bcrypt
//! hashes), read and checked whole, so that a bad file is a usage error
//! naming it before anything listens; and the stamps of the files it names,
//! so the exporter can tell when to read it again (certificates rotate).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use serde::Deserialize;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::config::read;
use crate::error::{Error, Result};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    tls_server_config: Option<RawTls>,
    basic_auth_users: Option<BTreeMap<String, String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTls {
    cert_file: Option<PathBuf>,
    key_file: Option<PathBuf>,
    client_ca_file: Option<PathBuf>,
    client_auth_type: Option<String>,
    min_version: Option<String>,
}

/// A web configuration, checked.
pub struct WebConfig {
    /// TLS, when `tls_server_config` is given.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// User name -> bcrypt hash; empty: no basic auth.
    pub users: BTreeMap<String, String>,
    /// Whether clients must present a certificate signed by the client CA.
    pub client_certs: bool,
    /// The file and the files it names, with what they were when read.
    stamps: Vec<(PathBuf, Option<(SystemTime, u64)>)>,
}

impl WebConfig {
    /// Read and check `path`: a usage error naming it for malformed YAML,
    /// an unknown key, a password that is not a bcrypt hash, or a
    /// certificate or key that cannot be read.
    pub fn load(path: &Path) -> Result<Self> {
        let bad = |what: String| {
            Error::usage(format!("--web-config-file {}: {what}", path.display()))
                .with_hint("see the exporter-toolkit's web configuration format in 'man ylemctl-metrics-serve'")
        };
        // Read as every file the tool is pointed at: a regular file within
        // a bound, so a FIFO or /dev/zero given here is refused, not a hang.
        let text = read::bounded_text(path, "--web-config-file", read::SMALL)?
            .ok_or_else(|| bad("no such file".into()))?;
        let raw: Raw = if text.trim().is_empty() {
            Raw {
                tls_server_config: None,
                basic_auth_users: None,
            }
        } else {
            serde_norway::from_str(&text).map_err(|e| bad(without_values(&e.to_string())))?
        };
        let users = raw.basic_auth_users.unwrap_or_default();
        for (user, hash) in &users {
            if hash.parse::<bcrypt::HashParts>().is_err() {
                return Err(bad(format!(
                    "basic_auth_users: the password of '{user}' is not a bcrypt hash (make one with 'htpasswd -nBC 10 \"\" | tr -d ':\\n'')"
                )));
            }
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut files = vec![path.to_path_buf()];
        let (tls, client_certs) = match raw.tls_server_config {
            Some(t) => {
                let (config, client_certs) = tls(&t, dir, &mut files).map_err(bad)?;
                (Some(Arc::new(config)), client_certs)
            }
            None => (None, false),
        };
        Ok(WebConfig {
            tls,
            users,
            client_certs,
            stamps: files.into_iter().map(|f| (f.clone(), stamp(&f))).collect(),
        })
    }

    /// Whether the file, or a file it names, changed since it was read.
    pub fn changed(&self) -> bool {
        self.stamps.iter().any(|(f, s)| stamp(f) != *s)
    }
}

/// serde's message with any quoted value left out (`invalid type: string
/// "..."`): a password put in the wrong place must not reach the terminal.
/// Keys are quoted with backticks and stay.
fn without_values(msg: &str) -> String {
    let mut out = String::new();
    for (i, part) in msg.split('"').enumerate() {
        out.push_str(if i % 2 == 1 { "***" } else { part });
    }
    out
}

/// When a file was last changed, and its size (`None`: cannot be read).
fn stamp(f: &Path) -> Option<(SystemTime, u64)> {
    let m = std::fs::metadata(f).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// The TLS server configuration; relative paths are read from the web
/// configuration's directory, as the exporter-toolkit reads them.
fn tls(
    t: &RawTls,
    dir: &Path,
    files: &mut Vec<PathBuf>,
) -> std::result::Result<(rustls::ServerConfig, bool), String> {
    let mut file = |key: &str, p: &Option<PathBuf>| -> std::result::Result<PathBuf, String> {
        let p = p
            .as_ref()
            .ok_or_else(|| format!("tls_server_config: {key} is missing"))?;
        let p = dir.join(p);
        if !p.is_file() {
            return Err(format!(
                "tls_server_config: {key} {}: no such file",
                p.display()
            ));
        }
        files.push(p.clone());
        Ok(p)
    };
    let cert = file("cert_file", &t.cert_file)?;
    let key = file("key_file", &t.key_file)?;
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&cert)
        .and_then(Iterator::collect)
        .map_err(|e| format!("cert_file {}: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "cert_file {}: no certificate in it",
            cert.display()
        ));
    }
    let key = PrivateKeyDer::from_pem_file(&key)
        .map_err(|e| format!("key_file {}: no private key read: {e}", key.display()))?;
    let auth = t.client_auth_type.as_deref().unwrap_or("NoClientCert");
    let verify = match auth {
        "NoClientCert" if t.client_ca_file.is_some() => {
            return Err("tls_server_config: client_ca_file is given but client_auth_type is NoClientCert: use RequireAndVerifyClientCert or VerifyClientCertIfGiven".into());
        }
        "NoClientCert" => None,
        "RequireAndVerifyClientCert" => Some(true),
        "VerifyClientCertIfGiven" => Some(false),
        "RequestClientCert" | "RequireAnyClientCert" => {
            return Err(format!(
                "tls_server_config: client_auth_type {auth} (a certificate not verified) is not supported: use RequireAndVerifyClientCert or VerifyClientCertIfGiven with client_ca_file"
            ));
        }
        other => {
            return Err(format!(
                "tls_server_config: unknown client_auth_type '{other}'"
            ));
        }
    };
    let versions: &[&rustls::SupportedProtocolVersion] = match t.min_version.as_deref() {
        None | Some("TLS12") => rustls::ALL_VERSIONS,
        Some("TLS13") => &[&rustls::version::TLS13],
        Some(v) => {
            return Err(format!(
                "tls_server_config: min_version {v}: use TLS12 or TLS13"
            ));
        }
    };
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(versions)
        .map_err(|e| format!("tls_server_config: {e}"))?;
    let builder = match verify {
        None => builder.with_no_client_auth(),
        Some(required) => {
            let ca = file("client_ca_file", &t.client_ca_file)?;
            let mut roots = rustls::RootCertStore::empty();
            for c in CertificateDer::pem_file_iter(&ca)
                .map_err(|e| format!("client_ca_file {}: {e}", ca.display()))?
            {
                let c = c.map_err(|e| format!("client_ca_file {}: {e}", ca.display()))?;
                roots
                    .add(c)
                    .map_err(|e| format!("client_ca_file {}: {e}", ca.display()))?;
            }
            let v =
                rustls::server::WebPkiClientVerifier::builder_with_provider(roots.into(), provider);
            let v = if required {
                v
            } else {
                v.allow_unauthenticated()
            };
            builder.with_client_cert_verifier(
                v.build()
                    .map_err(|e| format!("client_ca_file {}: {e}", ca.display()))?,
            )
        }
    };
    let mut config = builder
        .with_single_cert(certs, key)
        .map_err(|e| format!("cert_file and key_file: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok((config, verify == Some(true)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_in_a_yaml_error_is_not_shown() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("web.yml");
        std::fs::write(&p, "basic_auth_users: hunter2-secret\n").unwrap();
        let e = WebConfig::load(&p).err().unwrap();
        assert_eq!(e.kind.exit_code(), 2);
        assert!(!e.message.contains("hunter2"), "{}", e.message);
        assert!(e.message.contains("basic_auth_users"), "{}", e.message);
    }
}
