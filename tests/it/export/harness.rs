//! The export tests' receivers themselves (`common::receiver`): they start,
//! take a valid export (a hand-encoded one-span request, protobuf and
//! OTLP/JSON; a RunEvent), refuse what is not one (400) or not their route
//! (404), and `check_lineage_lines` tells a valid RunEvent from one without
//! a runId.
//! Spoken to in raw HTTP/1.1 over `TcpStream`: no client of ours between.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::common::receiver::{Receiver, check_lineage_lines};

/// The status code of one raw HTTP/1.1 request to the receiver, with
/// `extra` header lines.
fn status_with(
    r: &Receiver,
    method: &str,
    path: &str,
    content_type: &str,
    extra: &str,
    body: &[u8],
) -> u16 {
    let mut s = TcpStream::connect(("127.0.0.1", r.port())).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n\
         {extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text:?}"))
}

fn status(r: &Receiver, method: &str, path: &str, content_type: &str, body: &[u8]) -> u16 {
    status_with(r, method, path, content_type, "", body)
}

/// The statuses recorded in `requests()`, in order.
fn statuses(r: &Receiver) -> Vec<u64> {
    r.requests()
        .iter()
        .map(|q| q["status"].as_u64().unwrap())
        .collect()
}

#[test]
fn otlp_receiver_refuses_a_bad_body_and_other_routes() {
    let r = Receiver::otlp(&[]);
    assert!(r.url().starts_with("http://127.0.0.1:"), "{}", r.url());
    // `xx` parses as protobuf (field 15, a varint): refused for the unknown
    // field, as an exporter's misnumbered field would be.
    let proto = "application/x-protobuf";
    assert_eq!(status(&r, "POST", "/v1/traces", proto, b"xx"), 400);
    assert_eq!(
        status(&r, "POST", "/v1/traces", "application/json", b"xx"),
        400
    );
    assert_eq!(status(&r, "GET", "/v1/traces", proto, b""), 404);
    assert_eq!(status(&r, "POST", "/v1/metrics", proto, b""), 404);
    assert_eq!(statuses(&r), [400, 400, 404, 404]);
    assert!(r.received().is_empty(), "{:?}", r.received());
}

#[test]
fn lineage_receiver_refuses_a_bad_body_and_other_routes() {
    let r = Receiver::lineage(&[]);
    let json = "application/json";
    assert_eq!(status(&r, "POST", "/api/v1/lineage", json, b"xx"), 400);
    assert_eq!(status(&r, "POST", "/api/v1/lineage", json, b"{}"), 400);
    assert_eq!(status(&r, "GET", "/api/v1/lineage", json, b""), 404);
    assert_eq!(statuses(&r), [400, 400, 404]);
    assert!(r.received().is_empty(), "{:?}", r.received());
}

/// A RunEvent as the export means to send it: the schema and the client
/// must take it, and refuse it without `run.runId`.
const EVENT: &str = r#"{"eventType":"FAIL","eventTime":"2024-05-01T12:00:00.123Z","run":{"runId":"3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b","facets":{"errorMessage":{"_producer":"https://example.invalid/ylemctl","_schemaURL":"https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet","message":"step 3 failed","programmingLanguage":"rust"}}},"job":{"namespace":"ylem","name":"p1"},"producer":"https://example.invalid/ylemctl","schemaURL":"https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"}"#;

#[test]
fn check_lineage_lines_takes_a_valid_event_and_refuses_one_without_a_run_id() {
    assert_eq!(check_lineage_lines(&format!("{EVENT}\n")), Ok(1));
    let without = EVENT.replace(r#""runId":"3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b","#, "");
    assert_ne!(without, EVENT);
    let err = check_lineage_lines(&format!("{EVENT}\n{without}\n")).unwrap_err();
    assert!(err.contains("line 2") && err.contains("runId"), "{err}");
}

#[test]
fn lineage_receiver_records_an_accepted_event_as_received() {
    let r = Receiver::lineage(&["--api-key", "k-1"]);
    assert_eq!(
        status(
            &r,
            "POST",
            "/api/v1/lineage",
            "application/json",
            EVENT.as_bytes()
        ),
        401
    );
    let auth = "Authorization: Bearer k-1\r\n";
    let sent = status_with(
        &r,
        "POST",
        "/api/v1/lineage",
        "application/json",
        auth,
        EVENT.as_bytes(),
    );
    assert_eq!(sent, 201);
    let got = r.wait_received(1, Duration::from_secs(5));
    assert_eq!(
        got[0],
        serde_json::from_str::<serde_json::Value>(EVENT).unwrap()
    );
    assert_eq!(statuses(&r), [401, 201]);
}

/// A minimal export, encoded by hand (field numbers of trace.proto): one
/// span, trace id 0x01..0x10, span id 0x01..0x08, name "x". Only to see
/// the receiver take a valid request, in both encodings.
fn one_span_protobuf() -> Vec<u8> {
    let mut span = vec![0x0a, 16];
    span.extend(1..=16u8); // 1: trace_id
    span.extend([0x12, 8]);
    span.extend(1..=8u8); // 2: span_id
    span.extend([0x2a, 1, b'x']); // 5: name
    let wrap = |field: u8, inner: Vec<u8>| {
        let mut v = vec![field, inner.len() as u8];
        v.extend(inner);
        v
    };
    // Span in ScopeSpans.spans (2), in ResourceSpans.scope_spans (2), in
    // ExportTraceServiceRequest.resource_spans (1).
    wrap(0x0a, wrap(0x12, wrap(0x12, span)))
}

#[test]
fn otlp_receiver_takes_a_valid_export_in_both_encodings() {
    let r = Receiver::otlp(&[]);
    let proto = "application/x-protobuf";
    assert_eq!(
        status(&r, "POST", "/v1/traces", proto, &one_span_protobuf()),
        200
    );
    // OTLP/JSON: the ids in hex, which the receiver turns to base64 for
    // json_format.
    let json = r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"x"}]}]}]}"#;
    assert_eq!(
        status(
            &r,
            "POST",
            "/v1/traces",
            "application/json",
            json.as_bytes()
        ),
        200
    );
    let got = r.wait_received(2, Duration::from_secs(5));
    for (span, ct) in got.iter().zip([proto, "application/json"]) {
        assert_eq!(
            span["trace_id"], "0102030405060708090a0b0c0d0e0f10",
            "{span}"
        );
        assert_eq!(span["span_id"], "0102030405060708", "{span}");
        assert_eq!(span["parent_span_id"], "", "{span}");
        assert_eq!(span["name"], "x", "{span}");
        assert_eq!(span["content_type"], ct, "{span}");
    }
    assert_eq!(statuses(&r), [200, 200]);
}
