//! ylem-client used from outside the workspace: a sandbox on a free
//! loopback port, one `Client` shared by clones across tasks of a
//! multi-thread runtime (each pipeline's last run, asked two ways), and the
//! same client held as an axum `State` by a handler that awaits it. If a
//! future of the client were not `Send`, or the client not `Clone +
//! Send + Sync + 'static`, this would not compile. Prints one line a
//! pipeline and one for the served answer; exits 0.

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use ylem_client::runs::last::{Last, NotKnown, last};
use ylem_client::{Client, ClientBuilder, ClientCredentials, Entity, Secret, TokenSource, chrono};

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// A pipeline's last run, as the server states it and as the run model
/// judges it (finished on evidence, failed, or still going: never
/// "succeeded" for a run still going).
async fn both(client: Client, id: ylem_client::uuid::Uuid) -> Result<String, Failure> {
    let stated = match client.last_run(Entity::Pipeline, id).await? {
        Some(r) if r.is_successful => "the server says it succeeded",
        Some(_) => "the server says it failed",
        None => "the server knows no run",
    };
    let judged = match last(&client, Entity::Pipeline, id, chrono::Utc::now()).await {
        Ok(Last::Ran { last, .. }) => format!(
            "run {} {}, {} ms of tasks",
            last.run.as_deref().unwrap_or("-"),
            last.result,
            last.duration_ms
        ),
        Ok(Last::NoRunFound) => "never ran".to_string(),
        Err(NotKnown::Unconfirmed(e) | NotKnown::Failed(e)) => return Err(e.into()),
    };
    Ok(format!("{stated}; judged: {judged}"))
}

/// The served route: the client awaited inside an axum handler.
async fn served(State(client): State<Client>, Path(id): Path<String>) -> String {
    let Ok(id) = id.parse() else {
        return "not a UUID".to_string();
    };
    match client.last_run(Entity::Pipeline, id).await {
        Ok(Some(r)) => format!("last run succeeded: {}", r.is_successful),
        Ok(None) => "no run".to_string(),
        Err(e) => format!("error: {e}"),
    }
}

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
    let sandbox = ylem_sandbox::start(ylem_sandbox::Options {
        listen: loopback,
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

    // One task a pipeline, each on a clone of the one client.
    let tasks: Vec<_> = sandbox
        .pipelines
        .iter()
        .map(|p| (p.name.clone(), tokio::spawn(both(client.clone(), p.uuid))))
        .collect();
    for (name, task) in tasks {
        println!("{name}: {}", task.await??);
    }

    let app = Router::new()
        .route("/last/{id}", get(served))
        .with_state(client);
    let listener = tokio::net::TcpListener::bind(loopback).await?;
    let url = format!(
        "http://{}/last/{}",
        listener.local_addr()?,
        sandbox.pipelines[0].uuid
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    let answer = reqwest::get(&url).await?.error_for_status()?.text().await?;
    println!("served: {answer}");
    let _ = stop.send(());
    server.await??;
    sandbox.shutdown().await;
    Ok(())
}
