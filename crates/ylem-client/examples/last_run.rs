//! Starts a sandbox on a free loopback port and asks its first pipeline's
//! last run as the run model judges it (finished on evidence, failed, or
//! still going: never "succeeded" for a run still going), with nothing but
//! `ylem-client`, `ylem-sandbox` and tokio:
//! `cargo run -p ylem-client --example last_run`.

use std::net::SocketAddr;

use ylem_client::runs::last::{Last, NotKnown, last};
use ylem_client::{ClientBuilder, ClientCredentials, Entity, Secret, TokenSource, chrono};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = ylem_sandbox::start(ylem_sandbox::Options {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..Default::default()
    })
    .await?;
    let credentials = ClientCredentials::new(
        sandbox.client_id.clone(),
        Secret::new(sandbox.client_secret.clone()),
    );
    let client = ClientBuilder::new(sandbox.base_url.clone())
        .token_source(TokenSource::Client(Box::new(credentials)))
        .build()?;
    let pipeline = &sandbox.pipelines[0];
    // The server's last-run answer says which run is last; `last` folds that
    // run from the pipeline's log and judges it by the evidence rule.
    let asked = last(&client, Entity::Pipeline, pipeline.uuid, chrono::Utc::now()).await;
    match asked {
        Ok(Last::Ran { last, .. }) => println!(
            "{} ({}): last run {} {}, {} ms of tasks, {} ms from first start to last end",
            pipeline.name,
            pipeline.uuid,
            last.run.as_deref().unwrap_or("-"),
            last.result,
            last.duration_ms,
            last.elapsed_ms().unwrap_or(0),
        ),
        Ok(Last::NoRunFound) => println!("{} ({}): never ran", pipeline.name, pipeline.uuid),
        Err(NotKnown::Unconfirmed(e) | NotKnown::Failed(e)) => return Err(e.into()),
    }
    sandbox.shutdown().await;
    Ok(())
}
