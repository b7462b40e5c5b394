//! Temporary entry point that serves the sandbox; the real CLI replaces it.

use std::time::Duration;

use ylemctl::sandbox::{self, Dialect, Options};

/// Usage: ylemctl [listen-addr] [seed] [spec|ylem] [fail-rate] [latency-ms]
#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = Options::default();
    let arg = |i: usize| args.get(i).map(String::as_str);
    if let Some(a) = arg(0) {
        opts.listen = a.parse().map_err(std::io::Error::other)?;
    }
    if let Some(s) = arg(1) {
        opts.seed = s.parse().map_err(std::io::Error::other)?;
    }
    if arg(2) == Some("ylem") {
        opts.dialect = Dialect::Ylem;
    }
    if let Some(f) = arg(3) {
        opts.fail_rate = f.parse().map_err(std::io::Error::other)?;
    }
    if let Some(ms) = arg(4) {
        opts.latency = Duration::from_millis(ms.parse().map_err(std::io::Error::other)?);
    }
    let running = sandbox::start(opts).await?;
    print!("{}", running.banner());
    tokio::signal::ctrl_c().await?;
    running.shutdown().await;
    Ok(())
}
