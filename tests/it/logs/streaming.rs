//! `logs` streams: the built binary against a loopback server that sends a
//! log of 30 000 entries (about 7 MB) in chunks of odd sizes, so element
//! boundaries, strings and escapes fall across chunks. The output must be
//! complete and in order in every format, filters must apply on the stream,
//! and rows must reach stdout while the response is still arriving.

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::Notify;

use common::process::try_wait_for;
use common::{P1, TOKEN};

const ENTRIES: usize = 30_000;
/// The server stops after this many entries (and half of the next) until
/// the test has seen their rows on stdout.
const PAUSE_AFTER: usize = 5_000;
const RUNS: usize = 4;
const FROM: &str = "2024-01-13 00:00:00";
const TO: &str = "2024-01-14 00:00:00";

fn run_uuid(i: usize) -> String {
    format!("00000000-0000-4000-8000-{:012x}", i / 5 % RUNS + 1)
}

/// One log entry; its JSON is written by hand in the spec's key order,
/// which is also the order `jsonl` must print.
struct Entry {
    run: String,
    task: String,
    ok: bool,
    duration: usize,
    output: String,
    metric: usize,
    at: String,
}

/// Entry `i`: every 7th failed; some outputs carry quotes, commas, a
/// newline and non-ASCII text, so escapes cross chunk boundaries too.
fn entry(i: usize) -> Entry {
    Entry {
        run: run_uuid(i),
        task: format!("11111111-2222-4333-8444-{:012x}", i % 5),
        ok: !i.is_multiple_of(7),
        duration: i * 3,
        output: if i.is_multiple_of(97) {
            format!("say \"hi\", {i}\nnext line ü")
        } else {
            "QUJD".repeat(4 + i % 17)
        },
        metric: i % 1000,
        at: format!(
            "2024-01-13T{:02}:{:02}:{:02}Z",
            i / 3600 % 24,
            i / 60 % 60,
            i % 60
        ),
    }
}

impl Entry {
    fn json(&self) -> String {
        format!(
            r#"{{"workflow_run_uuid":"{}","task_uuid":"{}","task_type":"query","is_successful":{},"duration":{},"output":{},"metric_value":{},"executed_at":"{}"}}"#,
            self.run,
            self.task,
            self.ok,
            self.duration,
            serde_json::to_string(&self.output).unwrap(),
            self.metric,
            self.at
        )
    }

    fn csv(&self) -> [String; 8] {
        [
            self.run.clone(),
            self.task.clone(),
            "query".into(),
            self.ok.to_string(),
            self.duration.to_string(),
            self.output.clone(),
            self.metric.to_string(),
            self.at.clone(),
        ]
    }
}

struct Log {
    entries: Vec<Entry>,
    /// Each entry's JSON, as sent and as `jsonl` prints it.
    json: Vec<String>,
    body: Vec<u8>,
    /// Where entry `PAUSE_AFTER` is half sent.
    pause_at: usize,
}

/// The log, made once for all the tests of this file.
fn log() -> &'static Log {
    static LOG: OnceLock<Log> = OnceLock::new();
    LOG.get_or_init(|| {
        let entries: Vec<Entry> = (0..ENTRIES).map(entry).collect();
        let json: Vec<String> = entries.iter().map(Entry::json).collect();
        let mut body = b"[".to_vec();
        let mut pause_at = 0;
        for (i, e) in json.iter().enumerate() {
            if i > 0 {
                body.extend_from_slice(b",\n ");
            }
            if i == PAUSE_AFTER {
                pause_at = body.len() + e.len() / 2;
            }
            body.extend_from_slice(e.as_bytes());
        }
        body.extend_from_slice(b"]\n");
        Log {
            entries,
            json,
            body,
            pause_at,
        }
    })
}

/// What the server saw: request heads, one per connection.
#[derive(Default)]
struct Seen(Mutex<Vec<String>>);

struct Server {
    addr: SocketAddr,
    seen: Arc<Seen>,
    resume: Arc<Notify>,
    _rt: tokio::runtime::Runtime,
}

/// Serve the log with chunked encoding in pieces of 1 byte to 64 KiB,
/// pausing (at most 10 s) half-way through entry `PAUSE_AFTER` if `pause`.
fn serve(pause: bool) -> Server {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = rt.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Seen::default());
    let resume = Arc::new(Notify::new());
    let (s, r) = (seen.clone(), resume.clone());
    rt.spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let mut head = Vec::new();
            let mut buf = [0u8; 4096];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                match sock.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => head.extend_from_slice(&buf[..n]),
                }
            }
            s.0.lock()
                .unwrap()
                .push(String::from_utf8_lossy(&head).into_owned());
            let _ = send_chunked(&mut sock, pause.then_some(&r)).await;
        }
    });
    Server {
        addr,
        seen,
        resume,
        _rt: rt,
    }
}

async fn send_chunked(
    sock: &mut tokio::net::TcpStream,
    pause: Option<&Arc<Notify>>,
) -> std::io::Result<()> {
    let Log { body, pause_at, .. } = log();
    let pause_at = *pause_at;
    sock.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n").await?;
    let sizes = [1usize, 7, 300, 4096, 65_539, 13, 1021];
    let (mut pos, mut k) = (0, 0);
    while pos < body.len() {
        let mut end = (pos + sizes[k % sizes.len()]).min(body.len());
        if pos < pause_at && end > pause_at {
            end = pause_at;
        }
        let chunk = &body[pos..end];
        sock.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .await?;
        sock.write_all(chunk).await?;
        sock.write_all(b"\r\n").await?;
        sock.flush().await?;
        if let (true, Some(n)) = (end == pause_at, pause) {
            let _ = tokio::time::timeout(Duration::from_secs(10), n.notified()).await;
        }
        if k.is_multiple_of(64) {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        pos = end;
        k += 1;
    }
    sock.write_all(b"0\r\n\r\n").await?;
    sock.flush().await
}

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
    /// Lines on stdout before the server was told to send the rest.
    lines_before_resume: usize,
}

/// Run `ylemctl logs` against the server; with `pause`, wait (at most 5 s)
/// for `wait_lines` lines of output before letting the server go on.
fn logs(server: &Server, extra: &[&str], wait_lines: usize) -> Run {
    let mut args = vec!["logs", P1, "--from", FROM, "--to", TO];
    args.extend_from_slice(extra);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .env_clear()
        .env("YLEM_BASE_URL", format!("http://{}", server.addr))
        .env("YLEM_TOKEN", TOKEN)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ylemctl");
    let lines = Arc::new(AtomicUsize::new(0));
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let counter = lines.clone();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        let mut line = String::new();
        while stdout.read_line(&mut line).unwrap_or(0) > 0 {
            all.push_str(&line);
            line.clear();
            counter.fetch_add(1, Ordering::SeqCst);
        }
        all
    });
    if wait_lines > 0 {
        try_wait_for(Duration::from_secs(5), || {
            (lines.load(Ordering::SeqCst) >= wait_lines).then_some(())
        });
    }
    let lines_before_resume = lines.load(Ordering::SeqCst);
    server.resume.notify_one();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    Run {
        stdout: reader.join().unwrap(),
        stderr,
        code,
        lines_before_resume,
    }
}

const COLUMNS: [&str; 8] = [
    "workflow_run_uuid",
    "task_uuid",
    "task_type",
    "is_successful",
    "duration",
    "output",
    "metric_value",
    "executed_at",
];

fn csv_of(keep: impl Fn(usize) -> bool) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS).unwrap();
    for (i, e) in log().entries.iter().enumerate() {
        if keep(i) {
            w.write_record(e.csv()).unwrap();
        }
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

fn jsonl_of(keep: impl Fn(usize) -> bool) -> String {
    let mut s = String::new();
    for (i, j) in log().json.iter().enumerate() {
        if keep(i) {
            s.push_str(j);
            s.push('\n');
        }
    }
    s
}

/// `-o json` prints the array one element a line.
fn json_of() -> String {
    format!("[\n{}\n]\n", log().json.join(",\n"))
}

/// One request, to the log path with the window's `%20`, with the bearer.
fn assert_one_log_request(server: &Server) {
    let seen = server.seen.0.lock().unwrap();
    assert_eq!(seen.len(), 1, "requests: {seen:?}");
    let first = seen[0].lines().next().unwrap_or("");
    assert_eq!(
        first,
        format!(
            "GET /v1/stats/pipelines/{P1}/logs/2024-01-13%2000:00:00/2024-01-14%2000:00:00 HTTP/1.1"
        )
    );
    let auth = format!("authorization: bearer {}", TOKEN.to_lowercase());
    assert!(seen[0].to_lowercase().contains(&auth), "{}", seen[0]);
}

/// Complete, in order, and the first rows out before the rest was sent.
/// `lines` is how many lines the entries before the pause make.
fn check_streamed(format: &str, want: String, lines: usize) {
    let server = serve(true);
    let r = logs(&server, &["-o", format], lines);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.lines_before_resume >= lines,
        "{format}: only {} lines were written while the server waited",
        r.lines_before_resume
    );
    // Not assert_eq: a diff of megabytes helps nobody.
    assert!(r.stdout == want, "{format} output differs from the log");
    assert_one_log_request(&server);
}

#[test]
fn csv_is_complete_in_order_and_streamed() {
    // The header, a line per entry, and the newlines inside some outputs.
    let inner = (0..PAUSE_AFTER).filter(|i| i.is_multiple_of(97)).count();
    check_streamed("csv", csv_of(|_| true), 1 + PAUSE_AFTER + inner);
}

#[test]
fn jsonl_is_complete_in_order_and_streamed() {
    check_streamed("jsonl", jsonl_of(|_| true), PAUSE_AFTER);
}

#[test]
fn json_is_complete_in_order_and_streamed() {
    let want = json_of();
    serde_json::from_str::<serde::de::IgnoredAny>(&want).expect("valid JSON");
    // `[`, then every entry but the last one out, which waits for its `,`.
    check_streamed("json", want, PAUSE_AFTER);
}

#[test]
fn failed_and_run_filters_apply_on_the_stream() {
    let server = serve(false);
    let r = logs(&server, &["-o", "jsonl", "--failed"], 0);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout == jsonl_of(|i| i.is_multiple_of(7)), "--failed");

    let run = run_uuid(2 * 5);
    let r = logs(&server, &["-o", "csv", "--run", &run, "--failed"], 0);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let want = csv_of(|i| i.is_multiple_of(7) && run_uuid(i) == run);
    assert!(r.stdout == want, "--run with --failed");
    assert_eq!(server.seen.0.lock().unwrap().len(), 2);
}
