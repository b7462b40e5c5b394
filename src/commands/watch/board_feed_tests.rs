//! The engine's side of the board against an in-process sandbox: the rows
//! it sends at each refresh (every entity, health in `status`'s words, the
//! day per hour), and the answers to the board's asks (runs, a run's bars,
//! a start, a followed log). A stand-in `draw` plays the board.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::commands::kit::targets::Target;
use crate::commands::watch::command::on_board;
use crate::commands::watch::engine::Engine;
use crate::commands::watch::entity::Watched;
use crate::commands::watch::rows::{Answer, Ask, Board};
use crate::error::{Error, Result};
use ylem_client::runs::failure::{Finder, Outputs, Unreadable};
use ylem_client::{ClientBuilder, ClientCredentials, Entity, Secret, TokenSource};

/// Outputs as plain text (the sandbox's are Base64 only).
struct Plain;

impl Outputs for Plain {
    fn plain_text(&self, output: &str) -> std::result::Result<String, Unreadable> {
        use base64::Engine as _;
        let b = base64::engine::general_purpose::STANDARD
            .decode(output)
            .map_err(|e| Unreadable::Invalid(e.to_string()))?;
        Ok(String::from_utf8_lossy(&b).into_owned())
    }

    fn excerpt(&self, text: &str) -> String {
        text.chars().take(200).collect()
    }
}

async fn answer(answers: &mut mpsc::UnboundedReceiver<Answer>) -> Answer {
    tokio::time::timeout(Duration::from_secs(30), answers.recv())
        .await
        .expect("an answer in time")
        .expect("the engine answers")
}

/// The board: rows of every entity; then the runs of the first, a run
/// started, its bars and its log.
async fn play(
    mut rows: watch::Receiver<Board>,
    ask: mpsc::UnboundedSender<Ask>,
    mut answers: mpsc::UnboundedReceiver<Answer>,
    n: usize,
) -> Result<()> {
    let b = loop {
        rows.changed()
            .await
            .map_err(|e| Error::internal(e.to_string()))?;
        let b = rows.borrow().clone();
        if b.rows.len() == n && b.refreshed.is_some() {
            break b;
        }
    };
    for r in &b.rows {
        assert!(
            ["failed", "unknown", "degraded", "never", "running", "ok"].contains(&r.health),
            "{r:?}"
        );
        // Hours for a pipeline; a workflow's or task's counts are the
        // statistics' (no hourly figures: no bars).
        match r.kind {
            "pipeline" => assert_eq!(r.runs_per_hour.len(), 24),
            _ => assert!(r.runs_per_hour.is_empty() && r.counts.is_some(), "{r:?}"),
        }
        assert!(r.error.is_none(), "{r:?}");
    }
    assert!(b.rows.iter().any(|r| r.last.is_some()), "a last run: {b:?}");
    let id = b.rows[0].id.clone();
    ask.send(Ask::Runs {
        kind: "pipeline",
        id: id.clone(),
    })
    .unwrap();
    let Answer::Runs { runs: Ok(runs), .. } = answer(&mut answers).await else {
        panic!("runs")
    };
    assert!(!runs.is_empty());
    ask.send(Ask::Run {
        id: id.clone(),
        run_uuid: runs[0].run_uuid.clone(),
    })
    .unwrap();
    let Answer::Run {
        tasks: Ok(bars), ..
    } = answer(&mut answers).await
    else {
        panic!("run")
    };
    assert_eq!(bars.len(), runs[0].tasks);
    ask.send(Ask::Start {
        kind: "pipeline",
        id: id.clone(),
    })
    .unwrap();
    let Answer::Started { run: Ok(run), .. } = answer(&mut answers).await else {
        panic!("start")
    };
    ask.send(Ask::Log { id, run_uuid: run }).unwrap();
    let Answer::LogLine(line) = answer(&mut answers).await else {
        panic!("log")
    };
    assert!(line.contains("ms"), "{line}");
    ask.send(Ask::StopLog).unwrap();
    Ok(())
}

#[tokio::test(flavor = "current_thread")]
async fn the_board_gets_its_rows_and_its_answers() {
    let sandbox = ylem_sandbox::start(ylem_sandbox::Options {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        task_delay: Duration::from_millis(20),
        ..Default::default()
    })
    .await
    .unwrap();
    let credentials = ClientCredentials::new(
        sandbox.client_id.clone(),
        Secret::new(sandbox.client_secret.clone()),
    );
    let api = ClientBuilder::new(sandbox.base_url.clone())
        .token_source(TokenSource::Client(Box::new(credentials)))
        .build()
        .unwrap();
    let finder = Finder::new(Box::new(Plain), Default::default());
    let mut entities: Vec<Watched> = sandbox
        .pipelines
        .iter()
        .map(|p| {
            Watched::new(Target {
                kind: Entity::Pipeline,
                uuid: p.uuid,
                alias: Some(p.name.clone()),
            })
        })
        .collect();
    entities.push(Watched::new(Target {
        kind: Entity::Workflow,
        uuid: sandbox.workflows[0].uuid,
        alias: None,
    }));
    let n = entities.len();
    let engine = Engine {
        api: &api,
        finder: &finder,
        entities,
        since: None,
        concurrency: 4,
        interval: Duration::from_millis(300),
    };
    let r = on_board(
        engine,
        Duration::from_millis(300),
        None,
        |rows, ask, answers| play(rows, ask, answers, n),
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    sandbox.shutdown().await;
}
