#!/usr/bin/env python3
"""tests/py/otlp_receiver.py: the loopback OTLP/HTTP traces receiver the integration tests export to.

It decodes what arrives with the official OpenTelemetry protobuf classes (PyPI
`opentelemetry-proto`) and `google.protobuf.json_format`, never with a parser of
our own, so a request the real Collector would refuse is refused here too.

    python3 tests/py/otlp_receiver.py --port-file PATH --out PATH
        [--fail STATUS:N] [--retry-after SECONDS]
        [--partial REJECTED:MESSAGE] [--require-header NAME:VALUE]

Binds 127.0.0.1:0 and writes the port to --port-file (tmp file, then rename:
a reader never sees half a number) once listening. POST to any path ending in
/v1/traces is the export; anything else is 404.

--out gets a JSON line per span of each accepted request; --out + ".requests"
a JSON line per request received (header names only, never their values: the
tests put tokens in headers and grep for leaks).
"""

import argparse
import base64
import binascii
import gzip
import json
import os
import signal
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format, unknown_fields
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

PROTOBUF = "application/x-protobuf"
JSON = "application/json"

# OTLP/JSON writes these bytes fields as hex, where the proto3 JSON mapping
# (what json_format speaks) wants base64; both spellings of the key, since
# the proto3 mapping accepts the field's own name too.
HEX_ID_KEYS = {"traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id"}


class Rejected(Exception):
    """A request refused: its HTTP status and the reason (for the .requests log)."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def pair(text, what):
    """`A:B` split at the first colon (a message or a header value may hold more)."""
    a, sep, b = text.partition(":")
    if not sep or not a:
        raise argparse.ArgumentTypeError(f"{what}: expected A:B, got {text!r}")
    return a, b


def fail_arg(text):
    status, n = pair(text, "--fail")
    return int(status), int(n)


def partial_arg(text):
    rejected, message = pair(text, "--partial")
    return int(rejected), message


def header_arg(text):
    name, value = pair(text, "--require-header")
    return name.strip().lower(), value.strip()


def hex_ids_to_base64(node):
    """OTLP/JSON to proto3 JSON, as the Collector does: every hex id (spans,
    links, at any depth) to base64. Bad hex is the sender's error: 400."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k in HEX_ID_KEYS and isinstance(v, str):
                try:
                    raw = bytes.fromhex(v)
                except ValueError:
                    raise Rejected(400, f"{k} is not hex: {v!r}")
                # The spec's ids are lowercase hex; an uppercase one would be
                # a bug in the exporter even if fromhex takes it.
                if v != v.lower():
                    raise Rejected(400, f"{k} is not lowercase hex: {v!r}")
                out[k] = base64.b64encode(raw).decode("ascii")
            else:
                out[k] = hex_ids_to_base64(v)
        return out
    if isinstance(node, list):
        return [hex_ids_to_base64(v) for v in node]
    return node


def unknown_in(msg, where="ExportTraceServiceRequest"):
    """The first message (as a path) holding fields its type does not have.

    A protobuf parser keeps those quietly (so a body `xx` parses: field 15,
    a varint); the OTLP/JSON side refuses unknown names (json_format's
    default). Both refuse here, so a misnumbered or misnamed field in the
    exporter fails a test instead of losing data."""
    if len(unknown_fields.UnknownFieldSet(msg)):
        return where
    for field, value in msg.ListFields():
        if field.message_type is None:
            continue
        # is_repeated: protobuf 7's upb descriptors have no `label`.
        values = value if field.is_repeated else [value]
        for i, v in enumerate(values):
            found = unknown_in(v, f"{where}.{field.name}[{i}]")
            if found:
                return found
    return None


def decode(content_type, body):
    """The request as the official ExportTraceServiceRequest, or Rejected."""
    req = ExportTraceServiceRequest()
    if content_type == PROTOBUF:
        try:
            req = ExportTraceServiceRequest.FromString(body)
        except DecodeError as e:
            raise Rejected(400, f"protobuf: {e}")
        where = unknown_in(req)
        if where:
            raise Rejected(400, f"protobuf: unknown fields in {where}")
    elif content_type == JSON:
        # Strict on unknown field names, where the spec has receivers ignore
        # them: here they are an exporter's typo (see unknown_in).
        try:
            doc = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise Rejected(400, f"json: {e}")
        try:
            json_format.Parse(json.dumps(hex_ids_to_base64(doc)), req)
        except json_format.ParseError as e:
            raise Rejected(400, f"otlp json: {e}")
    else:
        # The spec's answer to a Content-Type the server does not take.
        raise Rejected(415, f"unsupported content type {content_type!r}")
    # Ids of the wrong length parse (bytes are bytes) but no backend takes
    # them: a trace id is 16 bytes, a span id 8.
    for rs in req.resource_spans:
        for ss in rs.scope_spans:
            for s in ss.spans:
                if len(s.trace_id) != 16 or len(s.span_id) != 8:
                    raise Rejected(400, f"span {s.name!r}: trace id {len(s.trace_id)} bytes, span id {len(s.span_id)}")
                if s.parent_span_id and len(s.parent_span_id) != 8:
                    raise Rejected(400, f"span {s.name!r}: parent span id {len(s.parent_span_id)} bytes")
    return req


def unwrap(v):
    """An AnyValue as a plain JSON value (an int stays an int: json.dumps of
    a Python int is exact, where OTLP/JSON would quote int64s)."""
    which = v.WhichOneof("value")
    if which is None:
        return None
    if which == "array_value":
        return [unwrap(x) for x in v.array_value.values]
    if which == "kvlist_value":
        return attrs(v.kvlist_value.values)
    if which == "bytes_value":
        return base64.b64encode(v.bytes_value).decode("ascii")
    return getattr(v, which)


def attrs(kvs):
    return {kv.key: unwrap(kv.value) for kv in kvs}


def span_lines(n, content_type, req):
    for rs in req.resource_spans:
        resource = attrs(rs.resource.attributes)
        for ss in rs.scope_spans:
            for s in ss.spans:
                yield {
                    "request": n,
                    "content_type": content_type,
                    "resource": resource,
                    "scope": {"name": ss.scope.name, "version": ss.scope.version},
                    "schema_url": ss.schema_url,
                    "trace_id": s.trace_id.hex(),
                    "span_id": s.span_id.hex(),
                    "parent_span_id": s.parent_span_id.hex(),
                    "name": s.name,
                    "kind": s.kind,
                    "start_time_unix_nano": s.start_time_unix_nano,
                    "end_time_unix_nano": s.end_time_unix_nano,
                    "status": {"code": s.status.code, "message": s.status.message},
                    "attributes": attrs(s.attributes),
                }


class State:
    """What the handler threads share, under one lock: the request count,
    the failures still to give, and the two output files."""

    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.n = 0
        self.fails_left = args.fail[1] if args.fail else 0
        # Line-buffered appends: a line is on disk when the test looks.
        self.out = open(args.out, "a", encoding="utf-8")
        self.requests = open(args.out + ".requests", "a", encoding="utf-8")

    def write(self, f, rec):
        f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        f.flush()


class Handler(BaseHTTPRequestHandler):
    # Keep-alive, as exporters (reqwest's pool) expect of a Collector.
    protocol_version = "HTTP/1.1"
    server_version = "otlp-receiver"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # quiet: the tests read the files, not our stderr

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def answer(self, status, body=b"", content_type="text/plain; charset=utf-8", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def record(self, st, n, status, content_type, spans, **more):
        rec = {
            "n": n,
            "status": status,
            "content_type": content_type,
            "spans": spans,
            "headers": sorted({k.lower() for k in self.headers.keys()}),
        }
        rec.update(more)
        st.write(st.requests, rec)

    def do_GET(self):
        self.refuse(404)

    do_PUT = do_DELETE = do_PATCH = do_HEAD = do_GET

    def refuse(self, status):
        st = self.server.state
        self.body()
        with st.lock:
            st.n += 1
            self.record(st, st.n, status, self.headers.get("Content-Type"), None, method=self.command, path=self.path)
        self.answer(status, b"not found\n")

    def do_POST(self):
        try:
            self.export()
        except Exception as e:  # a bug here must show as 500 in .requests, not a reset
            st = self.server.state
            with st.lock:
                st.n += 1
                self.record(st, st.n, 500, self.headers.get("Content-Type"), None, reason=f"receiver bug: {e!r}")
            self.answer(500, f"receiver bug: {e!r}\n".encode("utf-8"))

    def export(self):
        st = self.server.state
        args = st.args
        if not self.path.split("?", 1)[0].endswith("/v1/traces"):
            return self.refuse(404)
        raw = self.body()
        ctype = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        with st.lock:
            st.n += 1
            n = st.n
            failing = st.fails_left > 0
            if failing:
                st.fails_left -= 1
        if failing:
            status = args.fail[0]
            extra = [("Retry-After", str(args.retry_after))] if args.retry_after is not None else []
            with st.lock:
                self.record(st, n, status, ctype, None)
            return self.answer(status, b"injected failure\n", extra=extra)
        if args.require_header:
            name, value = args.require_header
            if (self.headers.get(name) or "").strip() != value:
                with st.lock:
                    self.record(st, n, 401, ctype, None, auth=False)
                return self.answer(401, b"missing or wrong header\n")
        try:
            enc = (self.headers.get("Content-Encoding") or "identity").strip().lower()
            if enc == "gzip":
                try:
                    raw = gzip.decompress(raw)
                except (OSError, EOFError, zlib.error) as e:
                    raise Rejected(400, f"gzip: {e}")
            elif enc != "identity":
                raise Rejected(400, f"unsupported content encoding {enc!r}")
            req = decode(ctype, raw)
        except Rejected as e:
            with st.lock:
                self.record(st, n, e.status, ctype, None, reason=e.reason)
            return self.answer(e.status, (e.reason + "\n").encode("utf-8"))
        lines = list(span_lines(n, ctype, req))
        resp = ExportTraceServiceResponse()
        if args.partial:
            resp.partial_success.rejected_spans = args.partial[0]
            resp.partial_success.error_message = args.partial[1]
        with st.lock:
            for line in lines:
                st.write(st.out, line)
            self.record(st, n, 200, ctype, len(lines), **({"auth": True} if args.require_header else {}))
        if ctype == PROTOBUF:
            self.answer(200, resp.SerializeToString(), PROTOBUF)
        else:
            self.answer(200, json_format.MessageToJson(resp, indent=None).encode("utf-8"), JSON)


def main():
    p = argparse.ArgumentParser(description="Loopback OTLP/HTTP traces receiver for the tests.")
    p.add_argument("--port-file", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--fail", type=fail_arg, metavar="STATUS:N", help="the first N exports get STATUS")
    p.add_argument("--retry-after", type=int, metavar="SECONDS", help="Retry-After on the failures")
    p.add_argument("--partial", type=partial_arg, metavar="REJECTED:MESSAGE", help="partial_success on every 200")
    p.add_argument("--require-header", type=header_arg, metavar="NAME:VALUE", help="401 without it")
    args = p.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(args)

    # SIGTERM ends serve_forever from inside (the handler runs on the main
    # thread, where serve_forever loops): SystemExit unwinds it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
