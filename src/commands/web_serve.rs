//! Serving `metrics serve` by its web configuration: the configuration as
//! it is now (read again when its files change, so certificates rotate
//! without a restart), a TLS listener for axum that shakes hands off the
//! accept loop, and basic auth checked with bcrypt in constant time.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use super::web_config::WebConfig;
use crate::ui::Ui;

/// How often the files are looked at for a change, at most.
const LOOK_EVERY: Duration = Duration::from_secs(1);
/// A TLS handshake that takes longer is dropped.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Handshakes in progress at once; more connections wait to be accepted.
const HANDSHAKES: usize = 64;

/// The web configuration in effect.
pub struct Live {
    path: PathBuf,
    ui: Ui,
    state: Mutex<Current>,
}

struct Current {
    config: Arc<WebConfig>,
    looked: Instant,
    /// A change already tried and refused: not tried again until the files
    /// change once more.
    refused: bool,
}

impl Live {
    pub fn new(path: PathBuf, config: WebConfig, ui: Ui) -> Self {
        Live {
            path,
            ui,
            state: Mutex::new(Current {
                config: Arc::new(config),
                looked: Instant::now(),
                refused: false,
            }),
        }
    }

    /// The configuration, read again first if its files changed. A file
    /// that no longer passes keeps the one in effect, with a warning.
    pub fn get(&self) -> Arc<WebConfig> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if s.looked.elapsed() < LOOK_EVERY {
            return s.config.clone();
        }
        s.looked = Instant::now();
        if !s.config.changed() {
            s.refused = false;
            return s.config.clone();
        }
        match WebConfig::load(&self.path) {
            Ok(c) if c.tls.is_some() == s.config.tls.is_some() => {
                self.ui
                    .note(&format!("{}: changed, read again", self.path.display()));
                s.config = Arc::new(c);
                s.refused = false;
            }
            Ok(_) if !s.refused => {
                self.ui.warn(&format!(
                    "{}: TLS cannot be turned on or off while serving: restart to do so; serving as before",
                    self.path.display()
                ));
                s.refused = true;
            }
            Err(e) if !s.refused => {
                self.ui.warn(&format!(
                    "{}; serving with the configuration as it was",
                    e.message
                ));
                s.refused = true;
            }
            _ => {}
        }
        s.config.clone()
    }
}

/// TCP connections, handed to axum once their TLS handshake is done.
pub struct TlsListener {
    tcp: TcpListener,
    live: Arc<Live>,
    shaking: JoinSet<Option<(TlsStream<TcpStream>, SocketAddr)>>,
}

impl TlsListener {
    pub fn new(tcp: TcpListener, live: Arc<Live>) -> Self {
        TlsListener {
            tcp,
            live,
            shaking: JoinSet::new(),
        }
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            tokio::select! {
                r = self.tcp.accept(), if self.shaking.len() < HANDSHAKES => match r {
                    Ok((stream, addr)) => {
                        // The certificate as it is now: a rotated one is
                        // used from the next connection on.
                        let Some(tls) = self.live.get().tls.clone() else { continue };
                        self.shaking.spawn(async move {
                            let shake = TlsAcceptor::from(tls).accept(stream);
                            let s = tokio::time::timeout(HANDSHAKE, shake).await.ok()?.ok()?;
                            Some((s, addr))
                        });
                    }
                    // Out of file descriptors and the like: wait a little.
                    Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                },
                Some(done) = self.shaking.join_next() => {
                    // A failed handshake (plain HTTP, an unknown client
                    // certificate) just closes that connection.
                    if let Ok(Some(ok)) = done {
                        return ok;
                    }
                }
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

/// Basic auth when the configuration lists users: 401 with
/// `WWW-Authenticate` unless the user and password match. The password is
/// checked with bcrypt (constant-time comparison), also for an unknown
/// user (against another user's hash), so the time taken does not tell
/// which users exist.
pub async fn basic_auth(State(live): State<Arc<Live>>, req: Request, next: Next) -> Response {
    let config = live.get();
    if config.users.is_empty() {
        return next.run(req).await;
    }
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(credentials);
    let ok = match given {
        Some((user, password)) => {
            let known = config.users.get(&user);
            let hash = known
                .or_else(|| config.users.values().next())
                .cloned()
                .unwrap_or_default();
            let matches = tokio::task::spawn_blocking(move || {
                bcrypt::verify(password.as_bytes(), &hash).unwrap_or(false)
            })
            .await
            .unwrap_or(false);
            matches && known.is_some()
        }
        None => false,
    };
    if ok {
        return next.run(req).await;
    }
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, "Basic realm=\"ylemctl\"")],
        "Unauthorized\n",
    )
        .into_response()
}

/// `Basic base64(user:password)`. The password is what a client sent, right
/// or wrong: it is never shown, and not a `Secret` either, whose values are
/// scrubbed from all text (a wrong password could be any common word).
fn credentials(value: &str) -> Option<(String, String)> {
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let raw = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_credentials_are_read() {
        let (u, p) = credentials("Basic dXNlcjpwYTpzcw==").unwrap();
        assert_eq!(u, "user");
        assert_eq!(p, "pa:ss");
        assert!(credentials("Bearer dXNlcjpwYXNz").is_none());
        assert!(credentials("Basic !!!").is_none());
        assert!(credentials("Basic dXNlcg==").is_none());
    }
}
