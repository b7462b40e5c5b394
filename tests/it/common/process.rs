//! Child processes the tests start and the waits on them: killed and reaped
//! when dropped, a free loopback port to hand one, the one bounded poll
//! (`wait_until`, `wait_for`), a child's exit awaited within a limit, and
//! its output read as it comes (`Lines`, `wait_line`).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ExitStatus};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A child process killed when dropped.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A loopback port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The first pause between two looks; doubled after each, up to `LONGEST`:
/// an event that comes at once is seen at once, and a long wait does not
/// spin on the machine the other tests share.
const FIRST: Duration = Duration::from_millis(5);
const LONGEST: Duration = Duration::from_millis(100);

/// `f`'s first `Some` within `limit`, looked for again and again; `None`
/// when the limit ran out (for a test that says itself what then).
pub fn try_wait_for<T>(limit: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let end = Instant::now() + limit;
    let mut pause = FIRST;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        let now = Instant::now();
        if now >= end {
            return None;
        }
        std::thread::sleep(pause.min(end - now));
        pause = (pause * 2).min(LONGEST);
    }
}

/// `f`'s first `Some` within `limit`; past it the test fails, saying what
/// it waited for (never a hang).
pub fn wait_for<T>(limit: Duration, what: &str, f: impl FnMut() -> Option<T>) -> T {
    try_wait_for(limit, f).unwrap_or_else(|| panic!("waited {limit:?} for {what}, in vain"))
}

/// Returns as soon as `ok` holds, within `limit`; past it the test fails,
/// saying what it waited for.
pub fn wait_until(limit: Duration, what: &str, mut ok: impl FnMut() -> bool) {
    wait_for(limit, what, || ok().then_some(()));
}

/// The child's exit within `limit`, or `None` (it still runs).
pub fn exit_within(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    try_wait_for(limit, || child.try_wait().ok().flatten())
}

/// Send `sig` (`libc::SIGTERM`, `libc::SIGINT`) to the child, then its
/// exit code within `limit`: `None` when it still runs (or had no code).
pub fn signal(child: &mut Child, sig: i32, limit: Duration) -> Option<i32> {
    // SAFETY: kill(2) of our own child, by its pid.
    if unsafe { libc::kill(child.id() as i32, sig) } != 0 {
        return None;
    }
    exit_within(child, limit)?.code()
}

/// One of a child's output streams, read line by line on a thread of its
/// own as it comes (so the child never blocks on a full pipe), kept whole,
/// and waited on for a line.
pub struct Lines {
    rx: Receiver<String>,
    got: Vec<String>,
    /// Where the next `wait_line` looks from: past the line it last found.
    next: usize,
    ended: bool,
}

impl Lines {
    pub fn read(stream: impl Read + Send + 'static) -> Lines {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stream);
            let mut buf = Vec::new();
            // Bytes, not `lines()`: a line not UTF-8 must not end the
            // reading (the child would then block on a full pipe).
            while r.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                let text = String::from_utf8_lossy(&buf);
                let line = text.strip_suffix('\n').unwrap_or(&text);
                let line = line.strip_suffix('\r').unwrap_or(line).to_string();
                buf.clear();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Lines {
            rx,
            got: Vec::new(),
            next: 0,
            ended: false,
        }
    }

    /// The child's stdout, taken from it (it must be piped).
    pub fn stdout(child: &mut Child) -> Lines {
        Lines::read(child.stdout.take().expect("stdout piped"))
    }

    /// The child's stderr, taken from it (it must be piped).
    pub fn stderr(child: &mut Child) -> Lines {
        Lines::read(child.stderr.take().expect("stderr piped"))
    }

    /// Take in what has come, waiting at most `wait` for a first line.
    fn take_in(&mut self, wait: Duration) {
        if self.ended {
            return;
        }
        match self.rx.recv_timeout(wait) {
            Ok(l) => self.got.push(l),
            Err(RecvTimeoutError::Timeout) => return,
            Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                return;
            }
        }
        loop {
            match self.rx.try_recv() {
                Ok(l) => self.got.push(l),
                Err(mpsc::TryRecvError::Empty) => return,
                Err(mpsc::TryRecvError::Disconnected) => {
                    self.ended = true;
                    return;
                }
            }
        }
    }

    /// Every line read so far.
    pub fn so_far(&mut self) -> &[String] {
        self.take_in(Duration::ZERO);
        &self.got
    }

    /// Returns as soon as `ok` holds of the lines read so far, within
    /// `limit`; else the test fails with `what` and the lines.
    pub fn wait_until(
        &mut self,
        limit: Duration,
        what: &str,
        mut ok: impl FnMut(&[String]) -> bool,
    ) {
        let end = Instant::now() + limit;
        loop {
            if ok(&self.got) {
                return;
            }
            let now = Instant::now();
            if now >= end || self.ended {
                panic!(
                    "waited {limit:?} for {what}, in vain{}; the lines:\n{}",
                    if self.ended {
                        " (the stream ended)"
                    } else {
                        ""
                    },
                    self.got.join("\n")
                );
            }
            self.take_in(end - now);
        }
    }

    /// The next line containing `pat` (after the one this last found),
    /// within `limit`; else the test fails, showing the lines.
    pub fn wait_line(&mut self, pat: &str, limit: Duration) -> String {
        let from = self.next;
        let mut at = None;
        self.wait_until(limit, &format!("a line with {pat:?}"), |l| {
            at = l[from.min(l.len())..]
                .iter()
                .position(|s| s.contains(pat))
                .map(|i| from + i);
            at.is_some()
        });
        let at = at.unwrap();
        self.next = at + 1;
        self.got[at].clone()
    }

    /// From now on, `wait_line` looks only at lines read after this call.
    pub fn mark(&mut self) {
        self.take_in(Duration::ZERO);
        self.next = self.got.len();
    }

    /// How many lines so far contain `pat`.
    pub fn count(&mut self, pat: &str) -> usize {
        self.so_far().iter().filter(|l| l.contains(pat)).count()
    }

    /// The whole stream once it ended (within `limit`), a line each.
    pub fn rest(mut self, limit: Duration) -> String {
        let end = Instant::now() + limit;
        while !self.ended {
            let now = Instant::now();
            assert!(now < end, "the stream did not end within {limit:?}");
            self.take_in(end - now);
        }
        let mut text = self.got.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text
    }
}
