//! Starts a sandbox on a free loopback port and asks the last run of its
//! first pipeline, with nothing but `ylem-client`, `ylem-sandbox` and tokio:
//! `cargo run -p ylem-client --example last_run`.

use std::net::SocketAddr;

use ylem_client::{ClientBuilder, ClientCredentials, Entity, Secret, TokenSource};

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
    match client.last_run(Entity::Pipeline, pipeline.uuid).await? {
        Some(run) => println!(
            "{} ({}): last run {}, {} ms, {}",
            pipeline.name,
            pipeline.uuid,
            run.executed_at.map_or("never".into(), |t| t.0),
            run.duration,
            if run.is_successful {
                "succeeded"
            } else {
                "failed"
            }
        ),
        None => println!("{} ({}): never ran", pipeline.name, pipeline.uuid),
    }
    sandbox.shutdown().await;
    Ok(())
}
