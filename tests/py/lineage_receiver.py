#!/usr/bin/env python3
"""tests/py/lineage_receiver.py: the loopback OpenLineage receiver (a stand-in for Marquez) and event checker.

    python3 tests/py/lineage_receiver.py serve --port-file PATH --out PATH
        [--fail STATUS:N] [--retry-after SECONDS] [--api-key KEY]
    python3 tests/py/lineage_receiver.py check FILE

Every event is judged twice, by official definitions only:
  (a) the OpenLineage JSON Schema (spec 2-0-2, vendored verbatim in
      tests/fixtures/openlineage, checked against the git blob hashes in its
      SOURCE at start-up) with `jsonschema`, draft 2020-12, and the run facet
      `errorMessage` against ErrorMessageRunFacet.json as well: the core
      schema checks a run facet only for RunFacet's base (_producer,
      _schemaURL);
  (b) the `openlineage-python` client's own models: the event rebuilt as a
      RunEvent (their validators: a UUID runId, an ISO date-time with a time,
      a known eventType) and serialised back with Serde.to_dict, which must
      give back what was sent.

`serve`: POST /api/v1/lineage, one RunEvent a request (as Marquez takes it),
201 when valid; with --api-key, 401 without `Authorization: Bearer KEY`.
Accepted events go to --out, a JSON line each; every request gets a line in
--out + ".requests" ({"n", "status", "reason"}; never a header value).
`check`: a JSON line per event (what `--output` json lines print); exit 0
with "N events valid", else exit 1 with the first problem.
"""

import argparse
import gzip
import hashlib
import json
import os
import re
import signal
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jsonschema
import referencing
from jsonschema.exceptions import best_match
from openlineage.client.event_v2 import Job, Run, RunEvent, RunState
# facet_v2 is a module re-exporting the generated facet modules, not a
# package: the facet is reached as an attribute.
from openlineage.client.facet_v2 import error_message_run
from openlineage.client.serde import Serde

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "openlineage")
CORE_ID = "https://openlineage.io/spec/2-0-2/OpenLineage.json"
RUN_EVENT = CORE_ID + "#/$defs/RunEvent"
ERROR_FACET = "https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet"


def git_blob_sha1(data):
    """What `git hash-object` prints for these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def load_schemas():
    """The vendored schemas as a jsonschema Registry, after proving each is
    the file at the commit SOURCE names (its git blob hash): a retyped or
    edited schema would let the harness agree with a wrong exporter."""
    source = open(os.path.join(FIXTURES, "SOURCE"), encoding="utf-8").read()
    blobs = dict(re.findall(r"^file: (\S+)\npath: \S+\nblob: ([0-9a-f]{40})$", source, re.M))
    if set(blobs) != {"OpenLineage.json", "ErrorMessageRunFacet.json"}:
        sys.exit(f"lineage_receiver: {FIXTURES}/SOURCE does not name both schema files with their blob hashes")
    resources = []
    for name, blob in sorted(blobs.items()):
        data = open(os.path.join(FIXTURES, name), "rb").read()
        got = git_blob_sha1(data)
        if got != blob:
            sys.exit(f"lineage_receiver: {name} is not the vendored file (git blob {got}, SOURCE says {blob}); refusing to run")
        schema = json.loads(data)
        # Both files say draft 2020-12 in their $schema; from_contents reads it.
        resources.append((schema["$id"], referencing.Resource.from_contents(schema)))
    return referencing.Registry().with_resources(resources)


REGISTRY = load_schemas()
# The schema's formats (date-time, uri, uuid) are checked: jsonschema does
# so only with its format-nongpl extra, which requirements.txt installs.
CHECK_EVENT = jsonschema.Draft202012Validator(
    {"$ref": RUN_EVENT}, registry=REGISTRY, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)
CHECK_ERROR_FACET = jsonschema.Draft202012Validator(
    {"$ref": ERROR_FACET}, registry=REGISTRY, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)


def schema_problem(validator, doc, where):
    err = best_match(validator.iter_errors(doc))
    if err is None:
        return None
    path = "".join(f"[{p!r}]" for p in err.absolute_path)
    return f"schema ({where}{path}): {err.message}"


def problem(ev):
    """None for a valid RunEvent, else the first thing wrong with it."""
    if not isinstance(ev, dict):
        return "not a JSON object"
    # (a) the official JSON Schema.
    p = schema_problem(CHECK_EVENT, ev, "RunEvent")
    if p:
        return p
    facets = ev["run"].get("facets") or {}
    if "errorMessage" in facets:
        p = schema_problem(CHECK_ERROR_FACET, facets["errorMessage"], "run.facets.errorMessage")
        if p:
            return p
    # The schema leaves eventType optional; the export promises a START and
    # a COMPLETE or FAIL for each run, so an event without one is a bug.
    if "eventType" not in ev:
        return "eventType missing"

    # (b) the client's models, with their validators.
    try:
        run_facets = {}
        if "errorMessage" in facets:
            f = facets["errorMessage"]
            run_facets["errorMessage"] = error_message_run.ErrorMessageRunFacet(
                message=f["message"],
                programmingLanguage=f["programmingLanguage"],
                stackTrace=f.get("stackTrace"),
                producer=f["_producer"],
            )
        built = RunEvent(
            eventType=RunState(ev["eventType"]),
            eventTime=ev["eventTime"],
            run=Run(runId=ev["run"]["runId"], facets=run_facets),
            job=Job(namespace=ev["job"]["namespace"], name=ev["job"]["name"]),
            producer=ev["producer"],
        )
        back = Serde.to_dict(built)
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        return f"openlineage-python refused it: {type(e).__name__}: {e}"
    pairs = [
        ("run.runId", ev["run"]["runId"], back["run"]["runId"]),
        ("eventType", ev["eventType"], back["eventType"]),
        ("eventTime", ev["eventTime"], back["eventTime"]),
        ("job.namespace", ev["job"]["namespace"], back["job"]["namespace"]),
        ("job.name", ev["job"]["name"], back["job"]["name"]),
        # The client puts its own default producer in for an empty one.
        ("producer", ev["producer"], back["producer"]),
        # The client sets the schemaURL of what it built; a 2-0-2 RunEvent
        # must name the same.
        ("schemaURL", ev["schemaURL"], back["schemaURL"]),
    ]
    if "errorMessage" in facets:
        f, b = facets["errorMessage"], back["run"]["facets"]["errorMessage"]
        pairs += [
            ("run.facets.errorMessage.message", f["message"], b["message"]),
            ("run.facets.errorMessage.programmingLanguage", f["programmingLanguage"], b["programmingLanguage"]),
            ("run.facets.errorMessage._producer", f["_producer"], b["_producer"]),
            ("run.facets.errorMessage._schemaURL", f["_schemaURL"], b["_schemaURL"]),
        ]
    for what, sent, got in pairs:
        if sent != got:
            return f"openlineage-python round trip: {what} sent {sent!r}, back {got!r}"
    return None


def check(path):
    n = 0
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                ev = json.loads(line)
            except ValueError as e:
                print(f"line {i}: not JSON: {e}")
                return 1
            p = problem(ev)
            if p:
                print(f"line {i}: {p}")
                return 1
            n += 1
    print(f"{n} events valid")
    return 0


def pair(text, what):
    a, sep, b = text.partition(":")
    if not sep or not a:
        raise argparse.ArgumentTypeError(f"{what}: expected A:B, got {text!r}")
    return a, b


def fail_arg(text):
    status, n = pair(text, "--fail")
    return int(status), int(n)


class State:
    """Shared by the handler threads, under one lock."""

    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.n = 0
        self.fails_left = args.fail[1] if args.fail else 0
        self.out = open(args.out, "a", encoding="utf-8")
        self.requests = open(args.out + ".requests", "a", encoding="utf-8")

    def write(self, f, rec):
        f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        f.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "lineage-receiver"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # quiet: the tests read the files

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

    def answer(self, status, text="", extra=()):
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def finish_request(self, status, reason, event=None, extra=()):
        st = self.server.state
        with st.lock:
            st.n += 1
            if event is not None:
                st.write(st.out, event)
            st.write(st.requests, {"n": st.n, "status": status, "reason": reason})
        self.answer(status, "" if reason is None else reason + "\n", extra)

    def do_GET(self):
        self.body()
        self.finish_request(404, f"no route {self.command} {self.path}")

    do_PUT = do_DELETE = do_PATCH = do_GET

    def do_POST(self):
        try:
            self.post()
        except Exception as e:  # a bug here must show as 500 in .requests, not a reset
            self.finish_request(500, f"receiver bug: {e!r}")

    def post(self):
        st = self.server.state
        args = st.args
        raw = self.body()
        if self.path.split("?", 1)[0] != "/api/v1/lineage":
            return self.finish_request(404, f"no route POST {self.path}")
        with st.lock:
            failing = st.fails_left > 0
            if failing:
                st.fails_left -= 1
        if failing:
            extra = [("Retry-After", str(args.retry_after))] if args.retry_after is not None else []
            return self.finish_request(args.fail[0], "injected failure", extra=extra)
        if args.api_key is not None and self.headers.get("Authorization", "") != f"Bearer {args.api_key}":
            return self.finish_request(401, "missing or wrong Authorization")
        ctype = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            return self.finish_request(415, f"content type {ctype!r}, not application/json")
        enc = (self.headers.get("Content-Encoding") or "identity").strip().lower()
        if enc == "gzip":
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error) as e:
                return self.finish_request(400, f"gzip: {e}")
        elif enc != "identity":
            return self.finish_request(400, f"unsupported content encoding {enc!r}")
        try:
            ev = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            return self.finish_request(400, f"not JSON: {e}")
        p = problem(ev)
        if p:
            return self.finish_request(400, p)
        self.finish_request(201, None, event=ev)


def serve(args):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(args)
    # SIGTERM unwinds serve_forever on the main thread (see otlp_receiver.py).
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
    return 0


def main():
    p = argparse.ArgumentParser(description="Loopback OpenLineage receiver and RunEvent checker for the tests.")
    sub = p.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("serve", help="receive POST /api/v1/lineage on 127.0.0.1")
    s.add_argument("--port-file", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--fail", type=fail_arg, metavar="STATUS:N", help="the first N posts get STATUS")
    s.add_argument("--retry-after", type=int, metavar="SECONDS", help="Retry-After on the failures")
    s.add_argument("--api-key", metavar="KEY", help="require Authorization: Bearer KEY")
    c = sub.add_parser("check", help="validate a file of RunEvent JSON lines")
    c.add_argument("file")
    args = p.parse_args()
    return serve(args) if args.mode == "serve" else check(args.file)


if __name__ == "__main__":
    sys.exit(main())
