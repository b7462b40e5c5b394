//! `--jq EXPR`: the jq filter (jaq), compiled once when the settings are
//! resolved, so that a bad expression is a usage error before any request;
//! and the writer that runs it over the JSON a command prints, as `gh
//! --jq` does: strings raw, other values compact JSON, one result a line.
//! A stream (`Each`: one JSON value a line, `-o jsonl`, `logs`, `runs`) is
//! filtered a line at a time as it is written, so memory stays flat; any
//! other output (`Whole`) is kept until the command ends and filtered as
//! one value.

use std::io::{self, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::jq_worker::{self, Job, Reply};
use crate::error::{Error, Result};

/// A compiled `--jq` expression: the thread that holds it (`jq_worker`).
pub struct Jq {
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl std::fmt::Debug for Jq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Jq")
    }
}

/// The longest piece of a value a run-time error message quotes: jaq's
/// messages hold the value they failed on, which may be a whole log row.
const QUOTED: usize = 200;

impl Jq {
    /// Parse and compile `expr` with jq's standard library (on the `--jq`
    /// thread); its errors as one usage error naming where in the
    /// expression each one is, or the limit it is past.
    pub fn compile(expr: &str) -> Result<Jq> {
        Ok(Jq {
            jobs: Mutex::new(jq_worker::start(expr)?),
        })
    }

    /// Run the filter on the JSON text `input`, writing each result to `w`,
    /// waiting for results until `deadline`.
    fn run(
        &self,
        input: &[u8],
        w: &mut dyn Write,
        escape: bool,
        deadline: Option<Instant>,
    ) -> Result<(), Failure> {
        let (reply, replies) = mpsc::sync_channel(4);
        let job = Job {
            input: input.to_vec(),
            escape,
            reply,
        };
        let sent = self.jobs.lock().map(|j| j.send(job).is_ok());
        if !matches!(sent, Ok(true)) {
            return Err(Failure::Filter("the --jq thread has ended".into()));
        }
        loop {
            let next = match deadline {
                Some(d) => replies
                    .recv_timeout(d.saturating_duration_since(Instant::now()))
                    .map_err(|e| matches!(e, mpsc::RecvTimeoutError::Timeout)),
                None => replies.recv().map_err(|_| false),
            };
            match next {
                Ok(Reply::Out(bytes)) => w.write_all(&bytes).map_err(Failure::Io)?,
                Ok(Reply::Done(Ok(()))) => return Ok(()),
                Ok(Reply::Done(Err(e))) if e.contains("(the limit)") => {
                    return Err(Failure::Limit(e));
                }
                Ok(Reply::Done(Err(e))) => return Err(Failure::Filter(shorten(e))),
                Err(true) => return Err(Failure::OutOfTime),
                Err(false) => return Err(Failure::Filter("the --jq thread has ended".into())),
            }
        }
    }
}

fn shorten(mut s: String) -> String {
    if s.chars().count() > QUOTED {
        s = s.chars().take(QUOTED).collect::<String>() + "…";
    }
    s
}

/// Why filtering stopped.
enum Failure {
    /// The filter failed on a value: the caller's expression and the data
    /// do not fit.
    Filter(String),
    /// A result past a limit of the `--jq` thread (`jq_worker`).
    Limit(String),
    /// `--max-time` ran out while the filter ran.
    OutOfTime,
    Io(io::Error),
}

/// How the output is cut into the values the filter sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// One JSON value a line, each filtered as it is written.
    Each,
    /// The whole output, filtered when the command ends (`finish`).
    Whole,
}

/// What the writer shares with whoever finishes it.
struct State {
    jq: Arc<Jq>,
    cut: Cut,
    inner: Box<dyn Write + Send>,
    /// A stream's unfinished line, or the whole output so far.
    pending: Vec<u8>,
    /// Values filtered so far (for the error's "at row N").
    rows: usize,
    /// The first failure of the filter: once set, nothing more is written.
    failed: Option<Error>,
    /// Standard output is a terminal: escape raw strings (`print`).
    escape: bool,
    /// When `--max-time` runs out, and what it was.
    deadline: Option<(Instant, Duration)>,
    /// Whether the command has done what cannot be undone (started a
    /// run): then a failure of the filter drops the rest of the output
    /// instead of failing the command's writing, so the command still
    /// reaches its own exit code (0, 7, 8) and the failure is said after.
    went_on: Box<dyn Fn() -> bool + Send>,
}

/// Standard output under `--jq`: hand it to the printers in place of the
/// terminal; `JqHandle::finish` when the command ends.
pub struct JqOut(Arc<Mutex<State>>);

/// The handle that ends filtering and reports its failure.
pub struct JqHandle(Arc<Mutex<State>>);

/// A writer that filters what is written to `inner`, and its handle;
/// `escape` when `inner` is a terminal; `went_on` says whether the command
/// has started something a failure of the filter must not stop.
pub fn writer(
    jq: Arc<Jq>,
    cut: Cut,
    inner: Box<dyn Write + Send>,
    escape: bool,
    went_on: Box<dyn Fn() -> bool + Send>,
    max_time: Option<Duration>,
) -> (JqOut, JqHandle) {
    let state = Arc::new(Mutex::new(State {
        jq,
        cut,
        inner,
        pending: Vec::new(),
        rows: 0,
        failed: None,
        escape,
        deadline: max_time.map(|m| (Instant::now() + m, m)),
        went_on,
    }));
    (JqOut(state.clone()), JqHandle(state))
}

impl State {
    fn filter(&mut self, input: &[u8]) -> io::Result<()> {
        if input.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        self.rows += 1;
        let deadline = self.deadline.map(|d| d.0);
        match self.jq.run(input, &mut self.inner, self.escape, deadline) {
            Ok(()) => Ok(()),
            Err(Failure::Io(e)) => Err(e),
            Err(Failure::Limit(msg)) => {
                self.failed = Some(
                    Error::server(format!("--jq went past a limit: {msg}"))
                        .with_hint("stream results (.[] | ...) or build smaller values"),
                );
                Err(io::Error::other("--jq failed"))
            }
            Err(Failure::OutOfTime) => {
                let limit = self.deadline.map(|d| d.1).unwrap_or_default();
                self.failed = Some(
                    Error::network(format!(
                        "out of time: the command's --max-time of {} ran out while --jq was evaluating",
                        crate::time::human_ms(limit.as_millis() as i64)
                    ))
                    .with_hint("--max-time bounds --jq too: the filter may not end (a recursion, repeat, range); raise --max-time or change the filter"),
                );
                Err(io::Error::other("--jq ran out of time"))
            }
            Err(Failure::Filter(msg)) => {
                let row = match self.cut {
                    Cut::Each => format!(" (row {})", self.rows),
                    Cut::Whole => String::new(),
                };
                self.failed = Some(
                    Error::usage(format!("--jq failed on the output{row}: {msg}")).with_hint(
                        "the expression does not fit the data: see the fields with -o json (--jq filters each row of logs, runs and -o jsonl on its own)",
                    ),
                );
                match (self.went_on)() {
                    true => Ok(()),
                    false => Err(io::Error::other("--jq failed")),
                }
            }
        }
    }
}

impl Write for JqOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if s.failed.is_some() {
            return match (s.went_on)() {
                // The rest is dropped: the command goes on to its verdict.
                true => Ok(buf.len()),
                false => Err(io::Error::other("--jq failed")),
            };
        }
        s.pending.extend_from_slice(buf);
        if s.cut == Cut::Each {
            let mut start = 0;
            let pending = std::mem::take(&mut s.pending);
            let mut result = Ok(());
            while let Some(n) = memchr::memchr(b'\n', &pending[start..]) {
                let line = &pending[start..start + n];
                start += n + 1;
                result = s.filter(line);
                if result.is_err() {
                    break;
                }
            }
            s.pending = pending;
            s.pending.drain(..start);
            result?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut s = self.0.lock().unwrap_or_else(|p| p.into_inner());
        s.inner.flush()
    }
}

impl JqHandle {
    /// Filter what is left (a stream's last line without its newline, or
    /// the whole output) and flush; the filter's failure, if it failed,
    /// now or while the command wrote.
    pub fn finish(&self) -> Result<()> {
        let mut s = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = s.failed.clone() {
            return Err(e);
        }
        let pending = std::mem::take(&mut s.pending);
        let written = s.filter(&pending).and_then(|()| s.inner.flush());
        match (written, s.failed.clone()) {
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(e.into()),
            (Ok(()), None) => Ok(()),
        }
    }

    /// The filter's failure while the command wrote, if any.
    pub fn failed(&self) -> Option<Error> {
        let s = self.0.lock().unwrap_or_else(|p| p.into_inner());
        s.failed.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn through(expr: &str, cut: Cut, input: &[&[u8]]) -> (String, Result<()>) {
        through_to(expr, cut, input, false)
    }

    fn through_to(expr: &str, cut: Cut, input: &[&[u8]], tty: bool) -> (String, Result<()>) {
        let buf = Buf::default();
        let jq = Arc::new(Jq::compile(expr).unwrap());
        let (mut w, h) = writer(
            jq,
            cut,
            Box::new(buf.clone()),
            tty,
            Box::new(|| false),
            None,
        );
        let mut r = Ok(());
        for i in input {
            if let Err(e) = w.write_all(i) {
                r = Err(e);
                break;
            }
        }
        let done = match r {
            Ok(()) => h.finish(),
            Err(_) => Err(h.failed().expect("a filter failure")),
        };
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        (out, done)
    }

    #[test]
    fn strings_raw_other_values_compact_one_a_line() {
        let (out, r) = through(
            ".[] | .a",
            Cut::Whole,
            &[
                b"[\n{\"a\": \"x y\"},\n",
                b"{\"a\": {\"b\": [1, 2]}}, {\"a\": null}\n]\n",
            ],
        );
        r.unwrap();
        assert_eq!(out, "x y\n{\"b\":[1,2]}\nnull\n");
    }

    #[test]
    fn on_a_terminal_a_string_cannot_forge_a_line_or_move_the_cursor() {
        let input: &[&[u8]] = &[b"{\"t\":\"q\\u001b[2JFORGED\\nhealthy  inv  ok\\u202eevil\"}\n"];
        let (out, r) = through_to(".t", Cut::Each, input, true);
        r.unwrap();
        assert_eq!(out, "q\\u{1b}[2JFORGED\\nhealthy  inv  ok\\u{202e}evil\n");
        // Off a terminal the string is data: as it came, as `jq -r` gives it.
        let (out, r) = through_to(".t", Cut::Each, input, false);
        r.unwrap();
        assert_eq!(out, "q\u{1b}[2JFORGED\nhealthy  inv  ok\u{202e}evil\n");
    }

    #[test]
    fn a_stream_is_filtered_a_line_at_a_time_whatever_the_writes() {
        let (out, r) = through(
            "select(.n > 1) | .n",
            Cut::Each,
            &[b"{\"n\":1}\n{\"n\"", b":2}\n{\"n\":3}\n{\"n\":4}"],
        );
        r.unwrap();
        assert_eq!(out, "2\n3\n4\n");
    }

    #[test]
    fn a_bad_expression_says_where() {
        let e = Jq::compile(".a | ").unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::Usage);
        assert!(
            e.message.contains("invalid --jq expression"),
            "{}",
            e.message
        );
        let e = Jq::compile(".a | nosuchfilter(1)").unwrap_err();
        assert!(
            e.message
                .contains("undefined filter nosuchfilter at character 6"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_failure_at_run_time_stops_the_output_and_names_the_row() {
        let (out, r) = through(
            ".a.b",
            Cut::Each,
            &[
                b"{\"a\":{\"b\":1}}\n",
                b"{\"a\":\"text\"}\n",
                b"{\"a\":{\"b\":3}}\n",
            ],
        );
        assert_eq!(out, "1\n");
        let e = r.unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::Usage);
        assert!(e.message.contains("(row 2)"), "{}", e.message);
        assert!(e.message.contains("cannot index"), "{}", e.message);
    }

    #[test]
    fn the_standard_library_is_there() {
        let (out, r) = through(
            "[.[] | select(test(\"^a\"))] | length, (map(ascii_upcase) | join(\",\"))",
            Cut::Whole,
            &[b"[\"ab\",\"ba\",\"ac\"]"],
        );
        r.unwrap();
        assert_eq!(out, "2\nAB,AC\n");
    }
}
