//! The signals that ask a command to stop: SIGINT (Ctrl-C) and, on Unix,
//! SIGTERM (what systemd, Kubernetes and `kill` send). Only the long-running
//! modes listen for SIGTERM; a one-shot command keeps its default action.

use std::future::Future;
use std::time::Duration;

/// The longest a server (`metrics serve`, `sandbox`) waits after a stop for
/// the requests in flight: a scrape's fetch is bounded by --timeout and the
/// retries, but a client may hold a connection open.
pub const DRAIN: Duration = Duration::from_secs(10);

/// Which signal asked the command to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// SIGINT: Ctrl-C at a terminal.
    Interrupt,
    /// SIGTERM: a supervisor stopping the command.
    Terminate,
}

/// SIGINT or SIGTERM, listened for from now on rather than from the
/// future's first poll: a signal sent right after a "Serving" banner must
/// stop the command cleanly, not kill it with the default action.
pub fn stop_now() -> impl Future<Output = Stop> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let int = signal(SignalKind::interrupt());
        let term = signal(SignalKind::terminate());
        async move {
            let int = async {
                match int {
                    Ok(mut s) => {
                        s.recv().await;
                    }
                    Err(_) => {
                        let _ = tokio::signal::ctrl_c().await;
                    }
                }
            };
            let term = async {
                match term {
                    Ok(mut s) => {
                        s.recv().await;
                    }
                    // Not listening leaves SIGTERM its default action.
                    Err(_) => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = int => Stop::Interrupt,
                () = term => Stop::Terminate,
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
        Stop::Interrupt
    }
}
