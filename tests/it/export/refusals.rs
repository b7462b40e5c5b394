//! What `export` refuses or cannot do, and says: a workflow's runs (no
//! log), gRPC, a bad header variable, a receiver nobody answers at (exit 6
//! after its retries), one that rejects spans (a partial success: exit 5),
//! one that wants a header (sent from OTEL_EXPORTER_OTLP_HEADERS, whose
//! values are never shown, even with -vv).

use crate::common;

use common::process::free_port;
use common::receiver::Receiver;
use common::sandbox::start;

#[test]
fn what_it_refuses_before_asking_anything() {
    let sb = start("ylem");
    let w = sb.workflows[0].clone();
    let o = sb.run(&["export", "otlp", &format!("workflow:{w}")]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("only pipeline runs"), "{}", o.stderr);
    let p = sb.pipelines[0].0.clone();
    let o = sb.run_with(
        &["export", "otlp", &p, "--endpoint", "http://127.0.0.1:9"],
        &[("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("http/protobuf or http/json"),
        "{}",
        o.stderr
    );
    let o = sb.run_with(
        &["export", "otlp", &p, "--endpoint", "http://127.0.0.1:9"],
        &[("OTEL_EXPORTER_OTLP_HEADERS", "x-token-no-equals-s3cr3t")],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(!o.all().contains("s3cr3t"), "{}", o.all());
    let o = sb.run(&["export", "otlp", &p, "--endpoint", "ftp://127.0.0.1/x"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    let o = sb.run(&["export", "otlp", &p, "--poll", "5s"]);
    assert_eq!(o.code, 2, "--poll without --follow: {}", o.stderr);
}

#[test]
fn a_receiver_nobody_answers_at_is_exit_6_after_its_retries() {
    let sb = start("spec");
    let p = sb.pipelines[0].0.clone();
    let url = format!("http://127.0.0.1:{}", free_port());
    let o = sb.run(&["export", "otlp", &p, "--since", "1d", "--endpoint", &url]);
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(
        o.stderr.contains("127.0.0.1"),
        "names the receiver: {}",
        o.stderr
    );
}

#[test]
fn rejected_spans_are_exit_5_and_headers_go_out_unseen() {
    let sb = start("ylem");
    let p = sb.pipelines[0].0.clone();
    let secret = "hc-team-7d1e2f3a4b5c";
    let rx = Receiver::otlp(&[
        "--require-header",
        &format!("x-honeycomb-team:{secret}"),
        "--partial",
        "2:too old",
    ]);
    let url = rx.url();
    let headers = format!("x-honeycomb-team={secret},x-other=a%20b");
    let o = sb.run_with(
        &[
            "-vv",
            "export",
            "otlp",
            &p,
            "--since",
            "1d",
            "--endpoint",
            &url,
        ],
        &[("OTEL_EXPORTER_OTLP_HEADERS", &headers)],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("rejected 2"), "{}", o.stderr);
    assert!(o.stderr.contains("too old"), "{}", o.stderr);
    assert!(
        !o.all().contains(secret),
        "a header value was shown:\n{}",
        o.all()
    );
    assert!(
        !rx.received().is_empty(),
        "the header was sent: {:?}",
        rx.requests()
    );
    // Without the header: refused (401), exit 3, nothing shown.
    let o = sb.run(&["export", "otlp", &p, "--since", "1d", "--endpoint", &url]);
    assert_eq!(o.code, 3, "{}", o.stderr);
}

#[test]
fn the_standard_variables_name_the_receiver_and_the_service() {
    let sb = start("spec");
    let p = sb.pipelines[0].0.clone();
    let rx = Receiver::otlp(&[]);
    // The base URL gets /v1/traces; the service name is the resource's.
    let base = rx.url();
    let o = sb.run_with(
        &["export", "otlp", &p, "--since", "1d"],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &base),
            ("OTEL_SERVICE_NAME", "ylem-prod"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    let got = rx.received();
    assert!(!got.is_empty());
    assert!(
        got.iter()
            .all(|s| s["resource"]["service.name"] == "ylem-prod"
                && s["content_type"] == "application/json"),
        "{got:?}"
    );
    // The signal's own URL is taken as it is, before the base URL.
    let other = Receiver::otlp(&[]);
    let traces = format!("{}/v1/traces", other.url());
    let o = sb.run_with(
        &["export", "otlp", &p, "--since", "1d"],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"),
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", &traces),
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        other.received().len(),
        got.len(),
        "the same spans, to the traces URL"
    );
}
