//! The man page sections clap does not write: EXIT STATUS, ENVIRONMENT,
//! FILES, TIME FORMATS, how `run --wait` decides, EXAMPLES and SEE ALSO, as
//! roff. The texts are here, beside each other, so one reading checks them
//! against the contract.

/// `(name, description)` pairs rendered as a `.TP` list.
type Items = &'static [(&'static str, &'static str)];

const EXIT: Items = &[
    (
        "0",
        "Success; also an empty result, and output closed early by a pipe.",
    ),
    ("1", "An unexpected internal error."),
    (
        "2",
        "Usage or invalid input (a bad UUID, time, period, count or field name): nothing was sent.",
    ),
    (
        "3",
        "Authentication or authorisation: no credentials, rejected credentials, 401 after one fresh token, 403.",
    ),
    (
        "4",
        "Not found (404); also last\\-run \\-\\-fail\\-on\\-failure when no run is found.",
    ),
    (
        "5",
        "Server or protocol error: 5xx, or a body that is not what the service specifies.",
    ),
    ("6", "Network: cannot connect, TLS, a time limit."),
    (
        "7",
        "A run failed (run \\-\\-wait, runs \\-\\-run \\-\\-exit\\-status), or last\\-run \\-\\-fail\\-on\\-failure found the last run failed.",
    ),
    (
        "8",
        "run \\-\\-wait (or runs \\-\\-run \\-\\-wait \\-\\-exit\\-status) timed out before the run finished; runs \\-\\-run \\-\\-exit\\-status: the run has not finished, or its end cannot be established; last\\-run \\-\\-fail\\-on\\-failure: the last run has not finished (0 with \\-\\-running\\-ok, as cron lines use it: a job landing mid\\-run raises no alert).",
    ),
    ("130", "Interrupted (Ctrl\\-C)."),
    (
        "143",
        "run \\-\\-wait or runs \\-\\-run \\-\\-wait stopped by SIGTERM: the run goes on on the server; the error names it and the command that follows it. (logs \\-\\-follow, metrics serve and sandbox end on SIGTERM with 0; other commands keep its default action.)",
    ),
];

const EXIT_CHECK: Items = &[
    ("0", "OK."),
    ("1", "WARNING: a warning threshold was passed."),
    (
        "2",
        "CRITICAL: a critical threshold was passed, or no run was found where a fresh one was required.",
    ),
    (
        "3",
        "UNKNOWN: bad arguments, or the service could not be asked.",
    ),
];

const ENVIRONMENT: Items = &[
    (
        "YLEM_PROFILE",
        "The profile to use (\\-\\-profile); default \\fIdefault\\fR.",
    ),
    (
        "YLEM_BASE_URL",
        "The service's base URL (\\-\\-base\\-url). A profile's stored secret and tokens go only to the base URL it logged in to: another service is refused before anything is sent (exit 3).",
    ),
    (
        "YLEM_OUTPUT",
        "The output format (\\-\\-output): table, json, jsonl, csv, prometheus (stats, last\\-run, status, check) or junit (run pipeline \\-\\-wait, runs \\-\\-run).",
    ),
    (
        "YLEM_TOKEN",
        "An access token, used as is; first in precedence.",
    ),
    (
        "YLEM_CLIENT_ID, YLEM_CLIENT_SECRET",
        "OAuth client credentials, used instead of the profile's stored ones, with the base URL in effect.",
    ),
    (
        "YLEM_TZ",
        "\\fIlocal\\fR (as \\-\\-local), \\fIUTC\\fR (the default) or an IANA time zone name such as \\fIEurope/Paris\\fR, in any case: the zone naive times are read in and tables show times in; anything else is a usage error (exit 2).",
    ),
    (
        "YLEM_CONFIG_DIR",
        "The configuration directory, instead of the platform's.",
    ),
    (
        "YLEM_CREDENTIAL_STORE",
        "auto, keyring or file: where login keeps the secret and tokens.",
    ),
    (
        "CI",
        "Set: never use the OS keyring (the file store is used).",
    ),
    (
        "YLEM_DECRYPT_KEY_FILE",
        "A key file (32 bytes, hex or Base64) that opens encrypted task outputs, to say why a run failed (\\-\\-decrypt\\-key\\-file).",
    ),
    ("NO_COLOR", "Set: no colour, whatever \\-\\-color says."),
    (
        "CLICOLOR_FORCE",
        "Set (not 0): colour even when standard output is not a terminal.",
    ),
    (
        "COLUMNS",
        "The width to fit tables and charts into; else the terminal's, or 80 when it reports none (0x0).",
    ),
    ("TERM", "dumb: no colour and no box drawing."),
    (
        "SSL_CERT_FILE, SSL_CERT_DIR",
        "Trust the CA certificates in this PEM file or directory instead of the system's store.",
    ),
    (
        "HTTPS_PROXY, HTTP_PROXY, NO_PROXY",
        "Send requests through a proxy, or not for the hosts listed; proxy credentials are never shown.",
    ),
];

const FILES: Items = &[
    (
        "~/.config/ylemctl/config.toml",
        "Profiles (base URL, client id, credential store, and decrypt_key_file set by hand) and aliases; no secret. In YLEM_CONFIG_DIR when set.",
    ),
    (
        "~/.config/ylemctl/credentials/",
        "The file credential store: PROFILE.secret.json and PROFILE.token.json, mode 0600 in a 0700 directory.",
    ),
    (
        "OS keyring",
        "The keyring store: Secret Service, macOS Keychain or Windows Credential Manager, service \\fIylemctl\\fR.",
    ),
];

const TIME_FORMATS: &str = r#".TP
\fBYYYY\-MM\-DD HH:MM:SS\fR, \fBYYYY\-MM\-DDTHH:MM:SS\fR[\fBZ\fR|\fB\(+-HH:MM\fR]
A time; naive times are UTC unless \-\-local is given.
.TP
\fBYYYY\-MM\-DD\fR
The start of that day; as \-\-to, the end of that day (inclusive).
.TP
\fBnow\fR, \fBtoday\fR, \fByesterday\fR
What they say; today and yesterday are the start of the day.
.TP
\fB90s\fR, \fB15m\fR, \fB24h\fR, \fB7d\fR, \fB2w\fR
A duration; as a TIME it means that long ago. Durations also set \-\-timeout, \-\-poll and the like.
.PP
A window is \-\-from TIME \-\-to TIME, or \-\-since TIME (to now); with none, the last 24 hours.
Times are sent to the service as UTC.
"#;

const RUN_WAIT: &str = r#".PP
The service has no "run finished" marker and no task count: with \-\-wait a
pipeline run is followed through the pipeline's log, and it counts as
\fBsucceeded\fR only on evidence:
.IP 1. 4
The run reported exactly the tasks that the pipeline's recent complete runs
all had (one look at the pipeline's log of the last 3 days, before the first
poll), or as many tasks as \-\-expect\-tasks says, and then no further task
came for one \-\-poll.
.IP 2. 4
Or no new task came for the settle time. Its default is learned from
history: three times the longest gap between two tasks of one past run (at
least 10s); without history, 10m. \-\-settle (a global option; also
YLEM_SETTLE, or the profile's \fBsettle\fR) replaces it, in every command
that judges a run, so they all give a run one verdict and one evidence
text; \-\-poll only sets how often the wait looks.
.PP
A failed task entry means \fBfailed\fR at once (exit 7). Branching and
for_each pipelines have runs of different sizes: they end by rule 2. The
output says which rule decided (\fBcompletion\fR, \fBevidence\fR). A
workflow run is followed through its last\-run statistics, and ends when a
new run has stayed unchanged for the settle time (\-\-settle, else 10m,
as last\-run, check and status judge it). Its \fBelapsed\fR is empty: the
statistics give no start, and the wait's own time is not the run's.
\-\-wait\-timeout (default 30m) limits the whole wait: exit 8, naming how
many tasks had reported.
.PP
Every \fBcompletion\fR value: \fBhistory\fR, \fBexpected_tasks\fR,
\fBsettled\fR, \fBfailed_task\fR, \fBrunning\fR (not complete on evidence),
\fBtimed_out\fR; for workflows and tasks, known from statistics alone:
\fBstatistics_settled\fR, \fBstatistics_failed\fR, \fBtask_reported\fR,
\fBunsettled\fR; \fBnot_in_log\fR (a last run the log did not hold yet).
"#;

const RUN_FAILS: &str = r#".PP
When a run failed, the output says why: the failed task (its UUID, type,
time and duration) and its error messages (Code, Severity, Message), read
from the task's output in the pipeline's log. In a table, the \fBfailure\fR
field is one line, e.g. \fItask notification (a87db346...): [4029
critical] quota exceeded\fR; JSON, JSON lines and CSV also carry
\fBfailed_task\fR, \fBfailed_task_type\fR and \fBfailed_tasks\fR (every
failed task with its messages).
.PP
run \-\-wait reads it from the entries it has already seen (no request
more), and prints a line per failed task under the error. last\-run, check
and status ask the pipeline's log once, for a minute around the last run's
time, only when the last run failed. check puts the task and its first
message on the status line, and the rest as long output.
.PP
Encrypted outputs are opened with the key from \-\-decrypt\-key\-file,
YLEM_DECRYPT_KEY_FILE or the profile's \fBdecrypt_key_file\fR; without one,
the failed task is named with how to decrypt. The service keeps no log for
workflows, and a task's log is its pipeline's: their reason is said to be
unknown, never guessed.
"#;

fn items(out: &mut String, list: Items) {
    for (k, v) in list {
        out.push_str(&format!(".TP\n\\fB{k}\\fR\n{v}\n"));
    }
}

/// A command's help after its options, in three: the paragraphs that start
/// `Exit status`, those that start `Signals:`, and the rest (the examples,
/// and any text kept as written), joined again.
fn split_help(help: &str) -> (Vec<&str>, Vec<&str>, String) {
    let (mut exits, mut signals, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for p in help.split("\n\n") {
        match p.trim_start() {
            t if t.starts_with("Exit status") => exits.push(t),
            t if t.starts_with("Signals:") => signals.push(t),
            _ => rest.push(p),
        }
    }
    (exits, signals, rest.join("\n\n"))
}

/// Prose paragraphs, filled by the reader.
fn paragraphs(out: &mut String, list: &[&str]) {
    for p in list {
        out.push_str(".PP\n");
        for l in p.lines() {
            out.push_str(&literal(l.trim()));
            out.push('\n');
        }
    }
}

/// Roff for literal text lines: backslashes doubled, and a line that would
/// start with a control character made plain.
fn literal(line: &str) -> String {
    let l = line.replace('\\', "\\e").replace('-', "\\-");
    if l.starts_with('.') || l.starts_with('\'') {
        format!("\\&{l}")
    } else {
        l
    }
}

/// SUBCOMMANDS: each subcommand's page and what it does.
pub fn subcommands(subs: &[(String, String)]) -> String {
    if subs.is_empty() {
        return String::new();
    }
    let mut s = String::from(".SH SUBCOMMANDS\n");
    for (page, about) in subs {
        s.push_str(&format!(
            ".TP\n\\fB\\%{}\\fR(1)\n{}\n",
            page.replace('-', "\\-"),
            literal(about)
        ));
    }
    s
}

/// The sections after clap's, for the page `name` (`ylemctl`,
/// `ylemctl-stats`, ...), with its `Examples:` help text and the pages to
/// name in SEE ALSO.
pub fn sections(name: &str, examples: Option<&str>, see_also: &[&str]) -> String {
    let mut s = String::new();
    let top = name == "ylemctl";
    let cmd = name.strip_prefix("ylemctl-").unwrap_or("");
    if cmd == "run" {
        s.push_str(".SH \"COMPLETION OF A RUN\"\n");
        s.push_str(RUN_WAIT);
    }
    if matches!(cmd, "run" | "runs" | "last-run" | "check" | "status") {
        s.push_str(".SH \"WHEN A RUN FAILS\"\n");
        s.push_str(RUN_FAILS);
    }
    // The help's own exit and signal paragraphs are prose in their
    // sections, not literal lines among the examples.
    let (exits, signals, examples) = split_help(examples.unwrap_or(""));
    s.push_str(".SH \"EXIT STATUS\"\n");
    paragraphs(&mut s, &exits);
    items(&mut s, if cmd == "check" { EXIT_CHECK } else { EXIT });
    if !signals.is_empty() {
        s.push_str(".SH SIGNALS\n");
        paragraphs(&mut s, &signals);
    }
    if top {
        s.push_str(".SH ENVIRONMENT\n");
        items(&mut s, ENVIRONMENT);
        s.push_str(".SH FILES\n");
        items(&mut s, FILES);
    }
    if top || matches!(cmd, "logs" | "stats" | "aggregate" | "check") {
        s.push_str(".SH \"TIME FORMATS\"\n");
        s.push_str(TIME_FORMATS);
    }
    let lines: Vec<&str> = examples
        .lines()
        .filter(|l| !l.trim().is_empty() && l.trim() != "Examples:")
        .collect();
    if !lines.is_empty() {
        s.push_str(".SH EXAMPLES\n.PP\n.nf\n.RS 4\n");
        for l in lines {
            s.push_str(&literal(l.trim()));
            s.push('\n');
        }
        s.push_str(".RE\n.fi\n");
    }
    if !see_also.is_empty() {
        s.push_str(".SH \"SEE ALSO\"\n");
        let refs: Vec<String> = see_also
            .iter()
            .map(|p| format!("\\fB\\%{}\\fR(1)", p.replace('-', "\\-")))
            .collect();
        s.push_str(&refs.join(",\n"));
        s.push('\n');
    }
    s
}
