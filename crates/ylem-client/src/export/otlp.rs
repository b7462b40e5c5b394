//! A finished run as one OTLP trace: a root span for the run and a child
//! span per task entry, with the OpenTelemetry CI/CD semantic conventions'
//! attributes (`SEMCONV`), encoded as OTLP/HTTP protobuf or OTLP JSON by
//! `opentelemetry-proto`'s generated messages; and the receiver's answer
//! read for a partial success.
//!
//! The IDs are derived, never drawn: the trace ID is the run UUID's 16
//! bytes, and each span ID the first 8 bytes of a name-based (v5) UUID
//! under the run's, so the same run exported twice is the same trace.

use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::{
    AnyValue, InstrumentationScope, KeyValue, any_value::Value,
};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::{
    ResourceSpans, ScopeSpans, Span, Status, span::SpanKind, status::StatusCode,
};
use prost::Message;
use uuid::Uuid;

use super::run::{FinishedRun, TaskRun};

/// The semantic conventions the attributes follow (the CI/CD ones are in
/// development there: `cicd.pipeline.result` and
/// `cicd.pipeline.task.run.result` are defined from 1.32.0 on).
pub const SEMCONV: &str = "1.37.0";
/// The scope's schema URL: `SEMCONV`'s.
pub const SCHEMA_URL: &str = "https://opentelemetry.io/schemas/1.37.0";
/// The instrumentation scope's name.
pub const SCOPE: &str = "ylem-client";
/// `service.name` when the caller gives none (`OTEL_SERVICE_NAME`).
pub const DEFAULT_SERVICE: &str = "ylem";

/// How the body goes on the wire (OTLP/HTTP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// `application/x-protobuf`: the OTLP default.
    #[default]
    Protobuf,
    /// `application/json`: OTLP JSON (hex IDs, integers as strings).
    Json,
}

impl Protocol {
    /// The `Content-Type` of a body in this encoding.
    pub fn content_type(self) -> &'static str {
        match self {
            Protocol::Protobuf => "application/x-protobuf",
            Protocol::Json => "application/json",
        }
    }
}

/// The resource the spans are of.
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    /// `service.name`.
    pub name: String,
    /// Where the runs were read (`server.address`), if known.
    pub address: Option<String>,
}

/// The request that exports `runs` (one trace each) as from `service`.
pub fn request(runs: &[FinishedRun], service: &Service) -> ExportTraceServiceRequest {
    let mut resource = vec![kv("service.name", text(&service.name))];
    if let Some(a) = &service.address {
        resource.push(kv("server.address", text(a)));
    }
    let spans = runs.iter().flat_map(spans_of).collect();
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: Some(Resource {
                attributes: resource,
                ..Default::default()
            }),
            scope_spans: vec![ScopeSpans {
                scope: Some(InstrumentationScope {
                    name: SCOPE.into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    ..Default::default()
                }),
                spans,
                schema_url: SCHEMA_URL.into(),
            }],
            schema_url: String::new(),
        }],
    }
}

/// `request` encoded for the wire.
pub fn encode(req: &ExportTraceServiceRequest, protocol: Protocol) -> Vec<u8> {
    match protocol {
        Protocol::Protobuf => req.encode_to_vec(),
        Protocol::Json => json(req),
    }
}

/// OTLP JSON: the generated types serialise as it asks (camelCase names,
/// hex IDs, 64-bit integers as strings, enums as numbers), and the fields
/// left at their default are dropped, as proto3 JSON allows: a receiver
/// built on an older definition then sees no field it does not know
/// (`entityRefs: []`, say). Written span by span: only one span is ever a
/// JSON value in memory, whatever the number of tasks.
fn json(req: &ExportTraceServiceRequest) -> Vec<u8> {
    let mut out = Vec::new();
    let piece = |out: &mut Vec<u8>, v: serde_json::Value| {
        let mut v = v;
        drop_defaults(&mut v);
        let _ = serde_json::to_writer(&mut *out, &v);
    };
    out.extend_from_slice(b"{\"resourceSpans\":[");
    for (i, rs) in req.resource_spans.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{");
        if let Some(r) = &rs.resource {
            out.extend_from_slice(b"\"resource\":");
            piece(&mut out, serde_json::to_value(r).unwrap_or_default());
            out.push(b',');
        }
        out.extend_from_slice(b"\"scopeSpans\":[");
        for (j, ss) in rs.scope_spans.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{");
            if let Some(scope) = &ss.scope {
                out.extend_from_slice(b"\"scope\":");
                piece(&mut out, serde_json::to_value(scope).unwrap_or_default());
                out.push(b',');
            }
            out.extend_from_slice(b"\"spans\":[");
            for (k, span) in ss.spans.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                piece(&mut out, serde_json::to_value(span).unwrap_or_default());
            }
            out.extend_from_slice(b"]");
            if !ss.schema_url.is_empty() {
                out.extend_from_slice(b",\"schemaUrl\":");
                let _ = serde_json::to_writer(&mut out, &ss.schema_url);
            }
            out.extend_from_slice(b"}");
        }
        out.extend_from_slice(b"]}");
    }
    out.extend_from_slice(b"]}");
    out
}

fn drop_defaults(v: &mut serde_json::Value) {
    use serde_json::Value as J;
    match v {
        J::Object(m) => {
            m.retain(|k, x| {
                // An attribute's value keeps its one field, whatever it is:
                // `{"stringValue": ""}` is not `{}`.
                k == "value"
                    || !matches!(x, J::Array(a) if a.is_empty())
                        && !matches!(x, J::String(s) if s.is_empty())
                        && !matches!(x, J::Number(n) if n.as_u64() == Some(0))
            });
            for (k, x) in m.iter_mut() {
                if k != "value" {
                    drop_defaults(x);
                }
            }
        }
        J::Array(a) => a.iter_mut().for_each(drop_defaults),
        _ => {}
    }
}

/// One run's spans as OTLP JSON, a line of its own (no receiver: stdout).
pub fn json_line(run: &FinishedRun, service: &Service) -> String {
    let req = request(std::slice::from_ref(run), service);
    String::from_utf8(json(&req)).unwrap_or_default()
}

/// The trace ID of a run: its UUID's bytes.
pub fn trace_id(run: Uuid) -> [u8; 16] {
    *run.as_bytes()
}

/// The root span's ID.
pub fn root_span_id(run: Uuid) -> [u8; 8] {
    span_id(run, "run")
}

/// The span ID of the `index`th entry (in the order they ran) of `run`,
/// of `task`: the index tells apart two entries of one task in a run.
pub fn task_span_id(run: Uuid, index: usize, task: Uuid) -> [u8; 8] {
    span_id(run, &format!("task/{index}/{task}"))
}

fn span_id(run: Uuid, name: &str) -> [u8; 8] {
    let b = Uuid::new_v5(&run, name.as_bytes()).into_bytes();
    let mut id = [0u8; 8];
    id.copy_from_slice(&b[..8]);
    // All zero is an invalid span ID; a v5 UUID's first 8 bytes are that
    // with odds of 2^-64, and then a fixed non-zero ID stands in.
    if id == [0; 8] {
        id[7] = 1;
    }
    id
}

fn nanos(t: chrono::DateTime<chrono::Utc>) -> u64 {
    t.timestamp_nanos_opt().map_or(0, |n| n.max(0) as u64)
}

fn result_word(ok: bool) -> &'static str {
    match ok {
        true => "success",
        false => "failure",
    }
}

/// A run's root span, then its tasks' spans.
fn spans_of(run: &FinishedRun) -> Vec<Span> {
    let trace = trace_id(run.run).to_vec();
    let root = root_span_id(run.run).to_vec();
    let mut attrs = vec![
        kv("cicd.pipeline.name", text(&run.pipeline_name)),
        kv("cicd.pipeline.run.id", text(&run.run.to_string())),
        kv("cicd.pipeline.result", text(result_word(!run.failed))),
        kv("cicd.pipeline.action.name", text("RUN")),
        kv("ylem.pipeline.uuid", text(&run.pipeline.to_string())),
        kv("ylem.run.completion", text(&run.completion)),
        kv("ylem.run.duration_ms", int(run.duration_ms)),
        kv(
            "ylem.run.tasks",
            int(run.tasks.len() as i64 + run.omitted as i64),
        ),
    ];
    if run.failed {
        attrs.push(kv("error.type", text("task_failed")));
    }
    if run.omitted > 0 {
        attrs.push(kv("ylem.run.tasks_not_exported", int(run.omitted as i64)));
    }
    let mut spans = vec![Span {
        trace_id: trace.clone(),
        span_id: root.clone(),
        name: format!("RUN {}", run.pipeline_name),
        kind: SpanKind::Server as i32,
        start_time_unix_nano: nanos(run.started),
        end_time_unix_nano: nanos(run.ended),
        attributes: attrs,
        status: Some(status(!run.failed, run.failure.as_deref())),
        ..Default::default()
    }];
    for (i, t) in run.tasks.iter().enumerate() {
        spans.push(task_span(run, i, t, &trace, &root));
    }
    spans
}

fn task_span(run: &FinishedRun, i: usize, t: &TaskRun, trace: &[u8], root: &[u8]) -> Span {
    let name = t.name.clone().unwrap_or_else(|| t.task.to_string());
    let mut attrs = vec![
        kv("cicd.pipeline.name", text(&run.pipeline_name)),
        kv("cicd.pipeline.run.id", text(&run.run.to_string())),
        kv("cicd.pipeline.task.name", text(&name)),
        kv("cicd.pipeline.task.type", text(&t.task_type)),
        kv(
            "cicd.pipeline.task.run.result",
            text(result_word(t.is_successful)),
        ),
        kv("ylem.task.uuid", text(&t.task.to_string())),
        kv("ylem.task.type", text(&t.task_type)),
        kv("ylem.task.duration_ms", int(t.duration_ms)),
    ];
    if let Some(m) = &t.metric {
        let v = match m.as_i64() {
            Some(i) => int(i),
            None => Value::DoubleValue(m.as_f64().unwrap_or(f64::NAN)),
        };
        attrs.push(kv("ylem.task.metric_value", v));
    }
    if !t.is_successful {
        attrs.push(kv("error.type", text("task_failed")));
    }
    Span {
        trace_id: trace.to_vec(),
        span_id: task_span_id(run.run, i, t.task).to_vec(),
        parent_span_id: root.to_vec(),
        name,
        kind: SpanKind::Internal as i32,
        start_time_unix_nano: nanos(t.started()),
        end_time_unix_nano: nanos(t.executed_at),
        attributes: attrs,
        status: Some(status(t.is_successful, t.message.as_deref())),
        ..Default::default()
    }
}

/// OK for a success, ERROR with the failure's words for a failure (the
/// semantic conventions leave a success's status unset; OK says the
/// result was established, which the run model did).
fn status(ok: bool, message: Option<&str>) -> Status {
    match ok {
        true => Status {
            code: StatusCode::Ok as i32,
            message: String::new(),
        },
        false => Status {
            code: StatusCode::Error as i32,
            message: message.unwrap_or("a task failed").to_string(),
        },
    }
}

fn kv(key: &str, value: Value) -> KeyValue {
    KeyValue {
        key: key.into(),
        value: Some(AnyValue { value: Some(value) }),
        ..Default::default()
    }
}

fn text(s: &str) -> Value {
    Value::StringValue(s.to_string())
}

fn int(i: i64) -> Value {
    Value::IntValue(i)
}

/// Spans the receiver said it rejected, and why (OTLP's partial success).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partial {
    /// How many spans it did not take.
    pub rejected_spans: i64,
    /// What it said (may be empty).
    pub message: String,
}

/// The partial success in a receiver's answer, if it reports one: an
/// answer it cannot read, or an empty one, is a full success, as the
/// OTLP specification has a client treat it.
pub fn partial_success(content_type: Option<&str>, body: &[u8]) -> Option<Partial> {
    if body.is_empty() {
        return None;
    }
    let json = content_type.is_some_and(|c| c.contains("json"));
    let resp: ExportTraceServiceResponse = match json {
        true => serde_json::from_slice(body).ok()?,
        false => ExportTraceServiceResponse::decode(body).ok()?,
    };
    let p = resp.partial_success?;
    match (p.rejected_spans, p.error_message.is_empty()) {
        (0, true) => None,
        (n, _) => Some(Partial {
            rejected_spans: n,
            message: p.error_message,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn run(failed: bool) -> FinishedRun {
        let at = |s| Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, s).unwrap();
        let task = |n: u128, ok: bool, s: u32, d: i64| TaskRun {
            task: Uuid::from_u128(n),
            name: None,
            task_type: "query".into(),
            is_successful: ok,
            executed_at: at(s),
            duration_ms: d,
            metric: Some(serde_json::Number::from(7)),
            message: (!ok).then(|| "[4029 critical] quota exceeded".into()),
        };
        FinishedRun {
            pipeline: Uuid::from_u128(1),
            pipeline_name: "orders".into(),
            run: Uuid::from_u128(0xabcdef),
            failed,
            failure: failed.then(|| "task 0000… (query) failed".into()),
            started: at(0),
            ended: at(5),
            duration_ms: 4000,
            completion: "history".into(),
            tasks: vec![task(2, true, 2, 2000), task(3, !failed, 5, 2000)],
            omitted: 0,
        }
    }

    fn service() -> Service {
        Service {
            name: "ylem".into(),
            address: None,
        }
    }

    #[test]
    fn one_trace_per_run_with_derived_ids_and_the_tasks_under_the_root() {
        let r = run(true);
        let req = request(std::slice::from_ref(&r), &service());
        let spans = &req.resource_spans[0].scope_spans[0].spans;
        assert_eq!(spans.len(), 3);
        assert!(spans.iter().all(|s| s.trace_id == r.run.as_bytes()));
        assert_eq!(spans[0].parent_span_id, Vec::<u8>::new());
        assert!(
            spans[1..]
                .iter()
                .all(|s| s.parent_span_id == spans[0].span_id)
        );
        let ids: std::collections::BTreeSet<_> = spans.iter().map(|s| s.span_id.clone()).collect();
        assert_eq!(ids.len(), 3);
        assert_eq!(
            spans[0].status.as_ref().unwrap().code,
            StatusCode::Error as i32
        );
        assert_eq!(spans[1].start_time_unix_nano, nanos(r.started));
        // The same run, the same bytes.
        assert_eq!(
            encode(&req, Protocol::Protobuf),
            encode(&request(&[r], &service()), Protocol::Protobuf)
        );
    }

    /// Written span by span, it is what serde writes of the whole, less
    /// the defaults.
    #[test]
    fn the_json_written_span_by_span_is_the_whole_less_its_defaults() {
        let req = request(&[run(true), run(false)], &service());
        let mut whole = serde_json::to_value(&req).unwrap();
        drop_defaults(&mut whole);
        let pieces: serde_json::Value =
            serde_json::from_slice(&encode(&req, Protocol::Json)).unwrap();
        assert_eq!(pieces, whole);
    }

    #[test]
    fn otlp_json_has_hex_ids_and_string_integers() {
        let line = json_line(&run(false), &service());
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let span = &v["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
        assert_eq!(span["traceId"], "00000000000000000000000000abcdef");
        assert!(span["startTimeUnixNano"].is_string());
        assert_eq!(span["status"]["code"], 1);
        // Defaults left out; an attribute's value kept whatever it is.
        assert!(span.get("parentSpanId").is_none() && span.get("events").is_none());
        assert!(
            v["resourceSpans"][0]["resource"]
                .get("entityRefs")
                .is_none()
        );
    }

    #[test]
    fn a_partial_success_is_read_in_either_encoding_and_an_empty_answer_is_none() {
        use opentelemetry_proto::tonic::collector::trace::v1::ExportTracePartialSuccess;
        let resp = ExportTraceServiceResponse {
            partial_success: Some(ExportTracePartialSuccess {
                rejected_spans: 2,
                error_message: "too old".into(),
            }),
        };
        let want = Some(Partial {
            rejected_spans: 2,
            message: "too old".into(),
        });
        assert_eq!(partial_success(None, &resp.encode_to_vec()), want);
        let json = serde_json::to_vec(&resp).unwrap();
        assert_eq!(partial_success(Some("application/json"), &json), want);
        assert_eq!(partial_success(None, b""), None);
        assert_eq!(partial_success(Some("application/json"), b"{}"), None);
    }
}
