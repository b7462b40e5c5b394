//! The library's contract that the compiler checks: every request future
//! is `Send` (it may be spawned on any worker of a multi-thread runtime),
//! `Client`, `Error` and `Redactor` are `Clone + Send + Sync + Debug +
//! 'static`, and a cloned client's request runs on a spawned task against
//! an in-process sandbox.

use std::fmt::Debug;
use std::net::SocketAddr;
use std::time::Duration;

use ylem_client::auth::oauth;
use ylem_client::auth::token_params::TokenParams;
use ylem_client::output::Decoder;
use ylem_client::runs::poll::{self, Look, Pacing, Step, StopRequest, Until};
use ylem_client::{
    Client, ClientBuilder, ClientCredentials, DateForm, DateForms, Entity, Error, LogStream,
    Period, Redactor, RunKind, Secret, TokenSource, Window, chrono, logs, quirks, runs, uuid,
};

/// Compiles only for a `Send` value; never awaited, so nothing is sent.
fn send<T: Send>(_: &T) {}

fn all<T: Clone + Send + Sync + Debug + 'static>() {}

/// One look, done at once: a step whose future is `Send`.
struct Once;

impl Step for Once {
    type Done = ();
    type Error = Error;
    async fn look(&mut self) -> Result<Look<()>, Error> {
        Ok(Look::Done(()))
    }
}

#[test]
fn the_types_a_program_shares_are_clone_send_sync_debug_and_static() {
    all::<Client>();
    all::<Error>();
    all::<Redactor>();
}

/// A client to a port nothing listens on: its futures are built, never
/// polled, so no request goes out.
#[test]
fn every_request_future_is_send() {
    let base = "http://127.0.0.1:9";
    let client = ClientBuilder::new(base)
        .token_source(TokenSource::Fixed(Secret::new("contract-token")))
        .build()
        .unwrap();
    let t = ClientBuilder::new(base).build_transport().unwrap();
    let id = uuid::Uuid::nil();
    let now = chrono::Utc::now();
    let w = Window {
        from: now - chrono::Duration::hours(1),
        to: now,
    };
    let body = bytes_of("{}");
    let day = now.date_naive();

    send(&client.start_run(RunKind::Pipeline, id));
    send(&client.start_run_with(RunKind::Pipeline, id, Some(&body)));
    send(&client.range_stats(Entity::Pipeline, id, &w));
    send(&client.aggregated_stats(Entity::Pipeline, id, day, DateForm::Date, Period::Day, 7));
    send(&client.last_run(Entity::Pipeline, id));
    send(&client.pipeline_logs(id, &w));
    // A log stream comes only from a request: these are checked, not run.
    let _next = |s: &mut LogStream| send(&logs::next_entry(s, None, false));
    let _each = |s: &mut LogStream| {
        send(&logs::each_entry(
            s,
            None,
            false,
            &mut 0u32,
            |_| Ok::<_, Error>(()),
            |n, _| {
                *n += 1;
                Ok(())
            },
        ))
    };
    let _apart = |s: LogStream| {
        fn idle(_: &mut u32) -> Result<(), Error> {
            Ok(())
        }
        fn each(n: &mut u32, _: ylem_client::models::LogEntryRef) -> Result<(), Error> {
            *n += 1;
            Ok(())
        }
        send(&logs::each_entry_apart(s, None, false, 0u32, idle, each))
    };

    send(&runs::last::last(&client, Entity::Pipeline, id, now));
    send(&runs::history::history(&client, id, now, |_| {}));
    send(&runs::history::lookup(&client, id, now));
    send(&runs::history::rules_of(
        &client,
        id,
        std::iter::empty(),
        |_| {},
    ));
    let decoder = Decoder::plain();
    send(&runs::input::of_run(&client, id, "run", &w, &decoder));

    send(&quirks::last_seen::last_seen(
        &client,
        Entity::Pipeline,
        id,
        now,
    ));
    send(&quirks::last_seen::confirm(
        &client,
        Entity::Pipeline,
        id,
        now,
    ));
    send(&quirks::last_seen::range_stats_checked(
        &client,
        Entity::Pipeline,
        id,
        &w,
    ));
    send(&quirks::refusal::start_run(
        &client,
        RunKind::Pipeline,
        id,
        None,
    ));
    let forms = DateForms::new(None, Box::new(|_| {}));
    send(
        &forms.ask(|form| client.aggregated_stats(Entity::Pipeline, id, day, form, Period::Day, 1)),
    );

    let secret = Secret::new("contract-secret");
    let params = TokenParams::body_first();
    send(&oauth::fetch_token(&t, "client", &secret, &params));
    send(&oauth::refresh_token(&t, "client", &secret, &params));
    let source = TokenSource::Client(Box::new(ClientCredentials::new("client".into(), secret)));
    send(&source.token(&t, None));

    let mut step = Once;
    let pacing = Pacing {
        first_look: Duration::ZERO,
        first: Duration::from_millis(100),
        longest: Duration::from_secs(1),
    };
    let until = Until {
        limit: None,
        cut_looks: false,
        stop: None::<&mut StopRequest<()>>,
    };
    send(&poll::drive(&mut step, pacing, until));

    #[cfg(feature = "diagnose")]
    {
        use ylem_client::diagnose;
        send(&diagnose::api::statistics(&client, now));
        send(&diagnose::api::workflow_endpoints(&client, now));
        send(&diagnose::api::date_form(&client, &forms, now));
        send(&diagnose::clock::server_clock(&t));
        let ep = diagnose::net::endpoint(base).unwrap();
        send(&diagnose::net::resolve(&ep, Duration::from_secs(1)));
        let addrs = [SocketAddr::from(([127, 0, 0, 1], 9))];
        send(&diagnose::net::connect(&addrs, Duration::from_secs(1)));
        let _handshake = |s: tokio::net::TcpStream| {
            send(&diagnose::tls::handshake(
                s,
                "localhost",
                Duration::from_secs(1),
            ))
        };
    }
}

fn bytes_of(s: &str) -> bytes::Bytes {
    bytes::Bytes::copy_from_slice(s.as_bytes())
}

/// A clone of the client asks on a task of its own, on a worker thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cloned_client_asks_on_a_spawned_task() {
    let sandbox = ylem_sandbox::start(ylem_sandbox::Options {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..Default::default()
    })
    .await
    .unwrap();
    let credentials = ClientCredentials::new(
        sandbox.client_id.clone(),
        Secret::new(sandbox.client_secret.clone()),
    );
    let client = ClientBuilder::new(sandbox.base_url.clone())
        .token_source(TokenSource::Client(Box::new(credentials)))
        .build()
        .unwrap();
    let id = sandbox.pipelines[0].uuid;
    let tasks: Vec<_> = (0..2)
        .map(|_| {
            let c = client.clone();
            tokio::spawn(async move { c.last_run(Entity::Pipeline, id).await })
        })
        .collect();
    for t in tasks {
        let asked = t.await.expect("the task ran");
        assert!(asked.is_ok(), "{:?}", asked.err());
    }
    sandbox.shutdown().await;
}
