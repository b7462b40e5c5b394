//! `doctor`: its clap definition (no arguments of its own), read by
//! `run.rs`.

use clap::Parser;

use crate::cli::ignoring;

/// Say why the tool cannot talk to the service, and what to do: set-up, network and TLS, clock, credentials, the API, aliases
#[derive(Debug, Parser)]
#[command(
    name = "doctor",
    after_help = "Checks, in order, each ok, warn, fail or skip (skip: it depends on one that\nfailed); for warn and fail, the fix:\n  set-up       the config file, the profile and where it and the base URL and\n               credentials come from, the credential store, file modes, the\n               login's binding\n  network      the host resolves, TCP connect time, TLS (the chain verifies\n               with the CA in use, days to expiry: warn under 14, the name\n               matches), the proxy from the environment (NO_PROXY as requests)\n  clock        the server's Date against this machine's clock (warn over 30 s\n               or without a Date, fail over 5 min)\n  credentials  a fresh token by client credentials (never printed): its type,\n               lifetime and scopes against stats:read and pipelines:run,\n               whether a refresh works, a secret sent in the URL (warn)\n  api          one statistics request (a 401 to a fresh token: the plan has\n               the API switched off), the dialect, workflow endpoints, the\n               aggregate date form (remembered as other commands do)\n  aliases      each alias of the profile asked as last-run asks it: a last\n               run found, none (never ran, unknown, or not of its kind: warn),\n               or refused (another organisation's, or a scope: warn)\n\nA table or -o json; a YLEM_OUTPUT it cannot print gives the table (jsonl:\nJSON), an explicit -o of another format is refused.\n\nExamples:\n  ylemctl doctor\n  ylemctl -p staging doctor -o json | jq '.checks[] | select(.status != \"ok\")'\n  SSL_CERT_FILE=private-ca.pem ylemctl doctor --base-url https://ylem.internal\n\nExit status: 0 no check failed (warnings allowed); else the first failed\ncheck's: 2 set-up or clock (also no token endpoint at the base URL), 3\ncredentials or the API refused, 5 the server failed, 6 network or TLS; 130\ninterrupted. --max-time defaults to 30s.",
    args = ignoring(&["fields", "no_header", "csv_raw", "local", "concurrency"])
)]
pub struct DoctorArgs {}
