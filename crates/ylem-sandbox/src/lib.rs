//! The embedded sandbox: an in-memory, seeded fake of the whole run and
//! statistics service, served with axum on loopback, in either the spec's
//! dialect or the open-source server's (`ylem`). This file declares the
//! modules, re-exports the public surface and starts the server; what the
//! modules share lives in files of their own (`options`, `running`, `state`).

mod aggregate;
mod aggregated;
mod auth;
mod counting;
mod dialect;
mod graph;
mod help;
mod options;
mod rng;
mod running;
mod runs;
mod seed;
mod server;
mod state;
mod stats;
mod store;
mod sync;
mod taskgen;
mod tokens;
mod trigger;
mod truth;

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::oneshot;

pub use help::HELP;
pub use options::{Dialect, Options, Scope, TASK_TIME_UNIT, TokenParams};
pub use running::{Entity, Running, Task};

use rng::{Rng, Stream};
use running::public_entities;
use state::Shared;
use store::Store;

/// Binds, seeds the data (history anchored 90 days back from now), spawns the
/// server on the current tokio runtime and returns at once.
pub async fn start(opts: Options) -> std::io::Result<Running> {
    let listener = tokio::net::TcpListener::bind(opts.listen).await?;
    let addr = listener.local_addr()?;
    let (client_id, client_secret, key) = seed::credentials(opts.seed);
    let codec = dialect::Codec::new(opts.dialect, &key);
    let pace = opts.task_delay.as_secs_f64() / TASK_TIME_UNIT.as_secs_f64();
    let entities = seed::build(
        opts.seed,
        chrono::Utc::now(),
        opts.dialect,
        pace,
        opts.extra_pipelines,
    );
    let (pipelines, workflows, specials) = public_entities(&entities);
    let shared = Arc::new(Shared {
        tokens: Mutex::new(tokens::Tokens::new(Rng::stream(
            opts.seed,
            Stream::Tokens,
            0,
        ))),
        faults: Mutex::new(Rng::stream(opts.seed, Stream::Faults, 0)),
        store: RwLock::new(Store { entities }),
        codec,
        client_id,
        client_secret: client_secret.clone(),
        requests: AtomicU64::new(0),
        token_requests: AtomicU64::new(0),
        request_log: Mutex::new(Default::default()),
        run_seq: AtomicU64::new(0),
        record_id: AtomicU64::new(0),
        sims: Mutex::new(Vec::new()),
        opts: opts.clone(),
    });
    let app = server::router(shared.clone());
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Running {
        base_url: format!("http://{addr}"),
        client_id: client_id.to_string(),
        client_secret,
        key_hex: key.iter().map(|b| format!("{b:02x}")).collect(),
        pipelines,
        workflows,
        specials,
        dialect: opts.dialect,
        seed: opts.seed,
        shared,
        stop,
        server,
    })
}
