//! The text `ylemctl sandbox --help` shows after the flags: what the sandbox
//! mirrors, so a user can tell what a test against it proves.

pub const HELP: &str = "\
What the sandbox does (both dialects unless marked):
  - Pipelines are task graphs: a chain, a condition taking one of two
    branches, a for_each repeating its branch per item (run sizes differ),
    a failing task that skips the rest. Started runs follow the graph live;
    each task reports after its own duration (a query takes far longer than
    a condition) times --task-delay per second of task time.
  - Logs are newest first and hold every entry of each run with an entry in
    the window; ylem times are RFC 3339 with 0-6 fractional digits.
  - Range statistics' last_run_* is the last run at or before `to`.
  - ylem: pipeline statistics as the server counts task rows (failures =
    failed rows, successes = runs - failed rows, average of run totals).
  - ylem: an unknown UUID or one of another kind reads like one that never
    ran (zeros, aggregated null, logs []); last-run answers 403 for all of
    them; another organisation's pipeline (listed) gets 403.
  - ylem: aggregated wants lowercase v4 UUIDs, count 0 gives null, the time
    of day is ignored, an unaligned start gives a partial first bucket and
    one extra.
  - ylem: a run start's body is the run's input; an initial external_trigger
    task outputs it ({} gives the task's test data, no body null). The banner
    marks the pipelines that begin with one. spec: the body is ignored.
  - Run start: records for the initial task only (spec); 404 for unknown,
    inactive, template and no-initial-task pipelines, 403 for a paused one
    (all listed in the banner).
  - Token endpoint with go-oauth2's errors, single-use refresh tokens,
    Cache-Control: no-store and Pragma: no-cache. Parameters from a
    form-encoded body and the query string; --token-params query reads the
    query only (a body's parameters are missed: 401 unsupported_grant_type),
    --token-params body the body only.
  - --fail-rate: 503 (spec); 500 with a JSON body or 502-504 (ylem).
  - --clock-skew D (signed: 90s, -10m): every response's Date header is off
    the true time by D; the data, run times and token lifetimes stay true.
  - --scopes LIST (comma-separated; \"\" grants none): what tokens grant (the
    token response's scope) and what is enforced after the bearer check, as
    the real gateway: stats:read guards the statistics and log endpoints,
    pipelines:run pipeline run starts, workflows:run workflow run starts. A
    missing scope is 403: ylem with an empty body and no Content-Type; spec
    {\"code\":403,\"message\":\"Forbidden\",\"errors\":[\"the token lacks the scope
    stats:read\"]}. Without it tokens grant the dialect's scope (spec
    workflows:run, ylem pipelines:run,stats:read) and nothing is enforced.
  - --plan-disabled: 401 with an empty body and no Content-Type on every
    authenticated endpoint, however fresh the token, as the real server's
    plan check; the token endpoint still issues tokens.
  - --failing-workflows (test-only, not the server's): every started
    workflow run fails on its last task, so a failed workflow run can be
    had on demand; pipelines and the seeded history are unchanged.
  - Sandbox-only, not part of the API: GET /_sandbox/runs/<run> gives a
    run's real task count, outcome, failed tasks, reported entries,
    whether it finished and the size of its input; GET /_sandbox/requests lists the latest API
    requests (method and path, and the names of query parameters, never
    their values).

Banner: text, with a line for each of --clock-skew, --scopes and
--plan-disabled in effect; with -o json, one JSON object on its first line
(dialect, seed, base_url, client_id, client_secret, output_key,
outputs_encrypted, pipelines with notes and tasks, special_pipelines,
workflows), for scripts.

Signals: Ctrl-C (SIGINT) or SIGTERM stops it accepting; the requests in
flight are answered (for at most 10 s), then it exits 0.

Examples:
  ylemctl sandbox                                  # http://127.0.0.1:7339, Ctrl-C stops it
  ylemctl sandbox --dialect ylem --listen 127.0.0.1:0
  ylemctl sandbox --latency 100ms --fail-rate 0.1 --token-ttl 2m
  ylemctl sandbox --dialect ylem --task-delay 100ms  # ten times faster runs
  ylemctl sandbox --dialect ylem --clock-skew -10m --scopes stats:read  # for doctor's checks
  ylemctl sandbox --plan-disabled                  # every API request 401, tokens still issued
  ylemctl sandbox --listen 127.0.0.1:0 -o json > sandbox.json &  # then: jq -r .base_url sandbox.json";
