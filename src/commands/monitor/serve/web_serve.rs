//! Serving `metrics serve` by its web configuration: the configuration as
//! it is now (read again when its files change, so certificates rotate
//! without a restart), a TLS listener for axum that shakes hands off the
//! accept loop, and the serving itself, hardened: a time limit on each
//! request's head, a cap on connections and a cap per client address.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::serve::Listener;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use crate::commands::monitor::serve::peers::Peers;
use crate::commands::monitor::serve::web_config::WebConfig;
use crate::ui::Ui;

/// How often the files are looked at for a change, at most.
const LOOK_EVERY: Duration = Duration::from_secs(1);
/// A TLS handshake that takes longer is dropped. Short, as `HEADER_READ`:
/// a slot held by a silent client is a slot a scrape waits for.
const HANDSHAKE: Duration = Duration::from_secs(3);
/// Handshakes in progress at once; more connections wait to be accepted.
const HANDSHAKES: usize = 64;
/// Handshakes in progress at once from one client address; more are closed.
const HANDSHAKES_PER_PEER: usize = 8;
/// A request's head (line and headers) must be in within this long, from
/// the connection's start (or the previous answer on a kept-alive one).
/// Prometheus sends its request at once; 3 s (was 10 s) means slots held
/// by idle or trickling sockets come free well within the 8 s default
/// scrape deadline (issue 43: 300 idle sockets held a scrape 9.5 s).
pub const HEADER_READ: Duration = Duration::from_secs(3);
/// Connections served at once (TLS handshakes in progress come on top).
pub const CONNECTIONS: usize = 256;
/// Connections served at once from one client address; more are closed as
/// soon as accepted, so one address cannot fill `CONNECTIONS`.
pub const PER_PEER: usize = 16;

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
    peers: Arc<Peers>,
}

impl TlsListener {
    pub fn new(tcp: TcpListener, live: Arc<Live>) -> Self {
        TlsListener {
            tcp,
            live,
            shaking: JoinSet::new(),
            peers: Peers::new(HANDSHAKES_PER_PEER),
        }
    }
}

impl Listener for TlsListener {
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
                        // Over its share of handshakes: closed at once.
                        let Some(slot) = self.peers.enter(addr.ip()) else { continue };
                        self.shaking.spawn(async move {
                            let _slot = slot;
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

/// Serve `app` on `listener` until `stop` turns true, then let the
/// requests in flight end. A connection has `HEADER_READ` to send each
/// request's head (slow-header clients are dropped); at most `CONNECTIONS`
/// are served at once, and more wait in the listening socket's backlog
/// (not accepted) until one ends; a client address that holds `PER_PEER`
/// already has its next one closed as soon as it is accepted.
pub async fn serve<L>(mut listener: L, app: Router, mut stop: watch::Receiver<bool>)
where
    L: Listener<Addr = SocketAddr>,
{
    let cap = Arc::new(Semaphore::new(CONNECTIONS));
    let peers = Peers::new(PER_PEER);
    let mut conns = JoinSet::new();
    loop {
        let accepted = async {
            let slot = cap.clone().acquire_owned().await.ok()?;
            Some((slot, listener.accept().await))
        };
        let (slot, (io, addr)) = tokio::select! {
            a = accepted => match a { Some(a) => a, None => break },
            _ = stop.wait_for(|s| *s) => break,
        };
        // Dropping `io` closes it; the global slot comes free with it.
        let Some(peer) = peers.enter(addr.ip()) else {
            continue;
        };
        let svc = TowerToHyperService::new(app.clone());
        let mut stop = stop.clone();
        conns.spawn(async move {
            let _slots = (slot, peer);
            let mut http = http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ);
            let conn = http.serve_connection(TokioIo::new(io), svc);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stop.wait_for(|s| *s) => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
        while conns.try_join_next().is_some() {}
    }
    drop(listener);
    while conns.join_next().await.is_some() {}
}
