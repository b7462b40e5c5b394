//! The suite's fake HTTP/1.1 server beside the sandbox: a route table of
//! canned answers (method, path, header and body matching, counts, delays),
//! and the faults no real server gives on demand: connection resets,
//! truncated bodies, bodies that trickle or never end.
//! It records every request (method, path, headers, body, arrival time) so tests
//! can assert traffic, and it only ever listens on 127.0.0.1.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request as it arrived.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The body as text (lossy), at most 16 MiB of it.
    pub body: String,
    pub at: Instant,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The path without its query.
    pub fn path_only(&self) -> &str {
        self.path.split('?').next().unwrap_or("")
    }

    /// What the request said, wherever it said it: its path with the query,
    /// then its body (a token request's parameters are in one or the other).
    pub fn sent(&self) -> String {
        format!("{} {}", self.path, self.body)
    }
}

/// What writes a generated body.
pub type Generator = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// What to do with a request.
pub enum Action {
    /// Write these bytes (a whole response) and close.
    Raw(Vec<u8>),
    /// Write these bytes, then reset the connection (RST, not FIN).
    ResetAfter(Vec<u8>),
    /// Write the head, then `body` one chunk per `every`, then close.
    Trickle {
        head: Vec<u8>,
        body: Vec<u8>,
        chunk: usize,
        every: Duration,
    },
    /// Write the head and then nothing, holding the connection for at most
    /// `hold` (the server never keeps a connection open forever).
    Hang { head: Vec<u8>, hold: Duration },
    /// Write the head and `start`, then `filler` again and again, one per
    /// `every` (none: as fast as the client reads), until the client goes
    /// or `hold` passes: a body that never ends.
    Endless {
        head: Vec<u8>,
        start: Vec<u8>,
        filler: Vec<u8>,
        every: Option<Duration>,
        hold: Duration,
    },
    /// Write the head, then whatever `body` writes as it generates it (a
    /// large body never held whole), then close.
    Generate { head: Vec<u8>, body: Generator },
    /// Wait this long, then do the action: a slow answer.
    After(Duration, Box<Action>),
}

/// A response with a status, headers and a body of the declared length.
pub fn response(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} X\r\nconnection: close\r\n").into_bytes();
    for (k, v) in headers {
        out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("content-length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body);
    out
}

pub fn json(status: u16, body: &str) -> Vec<u8> {
    response(
        status,
        &[("content-type", "application/json")],
        body.as_bytes(),
    )
}

/// A plain-text response.
pub fn text(status: u16, body: &str) -> Vec<u8> {
    response(status, &[("content-type", "text/plain")], body.as_bytes())
}

/// A head without a length: the body ends when the connection closes.
pub fn open_head(status: u16) -> Vec<u8> {
    format!("HTTP/1.1 {status} X\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n")
        .into_bytes()
}

type Handler = dyn Fn(&Seen, usize) -> Action + Send + Sync;

pub struct FaultServer {
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
    /// The route table of a server from `routed`.
    routes: Option<Arc<Mutex<Vec<Route>>>>,
}

impl FaultServer {
    /// Serve with `handler(request, index)`; `index` counts requests from 0.
    pub fn start(handler: impl Fn(&Seen, usize) -> Action + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (s2, st2) = (seen.clone(), stop.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if st2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (s, h, st) = (s2.clone(), handler.clone(), st2.clone());
                std::thread::spawn(move || serve(conn, &s, &*h, &st));
            }
        });
        FaultServer {
            port,
            seen,
            stop,
            routes: None,
        }
    }

    /// Serve from a route table, empty at first (every request a 404):
    /// `on` and `first` add routes while it serves.
    pub fn routed() -> Self {
        let routes: Arc<Mutex<Vec<Route>>> = Arc::default();
        let table = routes.clone();
        let mut s = Self::start(move |r, _| answer_from(&table, r));
        s.routes = Some(routes);
        s
    }

    /// Add `route` after the routes there are: it answers what they do not.
    pub fn on(&self, route: Route) -> Hits {
        let hits = route.hits.clone();
        self.table().push(route);
        hits
    }

    /// Add `route` before every route there is: it answers first.
    pub fn first(&self, route: Route) -> Hits {
        let hits = route.hits.clone();
        self.table().insert(0, route);
        hits
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Vec<Route>> {
        let routes = self.routes.as_ref();
        routes
            .expect("routes are for a FaultServer::routed")
            .lock()
            .unwrap()
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    pub fn count(&self, method: &str) -> usize {
        self.count_where(|s| s.method == method)
    }

    /// The requests so far with this method, in the order they came.
    pub fn seen_method(&self, method: &str) -> Vec<Seen> {
        self.seen()
            .into_iter()
            .filter(|s| s.method == method)
            .collect()
    }

    /// Requests so far for which `f` holds.
    pub fn count_where(&self, f: impl Fn(&Seen) -> bool) -> usize {
        self.seen().iter().filter(|s| f(s)).count()
    }
}

type Test = Box<dyn Fn(&Seen) -> bool + Send + Sync>;

/// One route of a table: a request that passes every test gets the answer
/// (at most `times` of them, if set). The first route that takes a
/// request answers it; a request no route takes is a 404.
pub struct Route {
    tests: Vec<Test>,
    answer: Box<dyn Fn(&Seen) -> Action + Send + Sync>,
    delay: Option<Duration>,
    times: Option<usize>,
    hits: Hits,
}

/// How many requests a route has answered.
#[derive(Clone, Default)]
pub struct Hits(Arc<AtomicUsize>);

impl Hits {
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A route that takes every request and answers 200 with no body.
pub fn route() -> Route {
    Route {
        tests: Vec::new(),
        answer: Box::new(|_| Action::Raw(response(200, &[], b""))),
        delay: None,
        times: None,
        hits: Hits::default(),
    }
}

impl Route {
    /// Only requests for which `f` holds.
    pub fn when(mut self, f: impl Fn(&Seen) -> bool + Send + Sync + 'static) -> Self {
        self.tests.push(Box::new(f));
        self
    }

    pub fn method(self, method: &'static str) -> Self {
        self.when(move |r| r.method == method)
    }

    /// The path without its query is `path`.
    pub fn path(self, path: impl Into<String>) -> Self {
        let path = path.into();
        self.when(move |r| r.path_only() == path)
    }

    /// The path without its query matches `glob`, in which `*` stands for
    /// any run of characters and `?` for one.
    pub fn path_like(self, glob: impl Into<String>) -> Self {
        let glob = glob.into();
        self.when(move |r| like(r.path_only().as_bytes(), glob.as_bytes()))
    }

    /// The header `name` has exactly this value.
    pub fn header(self, name: &'static str, value: impl Into<String>) -> Self {
        let value = value.into();
        self.when(move |r| r.header(name) == Some(value.as_str()))
    }

    pub fn body_has(self, part: impl Into<String>) -> Self {
        let part = part.into();
        self.when(move |r| r.body.contains(&part))
    }

    /// Answer at most `n` requests, then take no more.
    pub fn times(mut self, n: usize) -> Self {
        self.times = Some(n);
        self
    }

    /// Answer with these bytes, a whole response.
    pub fn answer(self, response: Vec<u8>) -> Self {
        self.answer_with(move |_| Action::Raw(response.clone()))
    }

    pub fn answer_with(mut self, f: impl Fn(&Seen) -> Action + Send + Sync + 'static) -> Self {
        self.answer = Box::new(f);
        self
    }

    /// Answer only after `delay`.
    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = Some(delay);
        self
    }
}

/// What the table answers `r`.
fn answer_from(table: &Mutex<Vec<Route>>, r: &Seen) -> Action {
    let table = table.lock().unwrap();
    let taken = table.iter().find(|route| {
        route.times.is_none_or(|n| route.hits.get() < n) && route.tests.iter().all(|t| t(r))
    });
    let Some(route) = taken else {
        return Action::Raw(response(404, &[], b""));
    };
    route.hits.0.fetch_add(1, Ordering::SeqCst);
    let action = (route.answer)(r);
    match route.delay {
        Some(d) => Action::After(d, Box::new(action)),
        None => action,
    }
}

/// The object-form answer of a started run (the ylem dialect's
/// `{"pipeline_run_uuid"}`), as `run_starts` gives it.
pub const STARTED: &str = r#"{"pipeline_run_uuid":"dddddddd-0000-4000-8000-000000000001"}"#;

/// A route that answers every pipeline run start (a POST to
/// `/v1/pipelines/ID/runs/`) 201 with `STARTED`.
pub fn run_starts() -> Route {
    route()
        .method("POST")
        .path_like("/v1/pipelines/*/runs/")
        .answer(json(201, STARTED))
}

/// `text` matches `glob` whole (`*` any run, `?` one byte).
fn like(text: &[u8], glob: &[u8]) -> bool {
    match glob.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|i| like(&text[i..], rest)),
        Some((b'?', rest)) => !text.is_empty() && like(&text[1..], rest),
        Some((c, rest)) => text.first() == Some(c) && like(&text[1..], rest),
    }
}

impl Drop for FaultServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so its thread ends.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn serve(conn: TcpStream, seen: &Mutex<Vec<Seen>>, handler: &Handler, stop: &AtomicBool) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 || stop.load(Ordering::SeqCst) {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut headers = Vec::new();
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
            headers.push((k.to_string(), v.trim().to_string()));
        }
    }
    let mut body = vec![0; length.min(16 << 20)];
    let _ = reader.read_exact(&mut body);
    let req = Seen {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        at: Instant::now(),
    };
    let index = {
        let mut s = seen.lock().unwrap();
        s.push(req.clone());
        s.len() - 1
    };
    act(conn, handler(&req, index), stop);
}

fn act(mut conn: TcpStream, action: Action, stop: &AtomicBool) {
    match action {
        Action::Raw(b) => {
            let _ = conn.write_all(&b);
            let _ = conn.shutdown(Shutdown::Write);
            // Let the client read everything before the socket goes.
            let _ = conn.set_read_timeout(Some(Duration::from_secs(2)));
            let _ = conn.read(&mut [0; 64]);
        }
        Action::ResetAfter(b) => {
            let _ = conn.write_all(&b);
            let _ = conn.flush();
            std::thread::sleep(Duration::from_millis(50));
            // SO_LINGER 0: close sends RST instead of FIN.
            let _ = socket_linger_zero(&conn);
        }
        Action::Trickle {
            head,
            body,
            chunk,
            every,
        } => {
            if conn.write_all(&head).is_err() {
                return;
            }
            for c in body.chunks(chunk.max(1)) {
                if stop.load(Ordering::SeqCst) || conn.write_all(c).is_err() {
                    return;
                }
                std::thread::sleep(every);
            }
        }
        Action::Endless {
            head,
            start,
            filler,
            every,
            hold,
        } => {
            let until = Instant::now() + hold;
            if conn.write_all(&head).is_err() || conn.write_all(&start).is_err() {
                return;
            }
            while Instant::now() < until && !stop.load(Ordering::SeqCst) {
                if conn.write_all(&filler).is_err() {
                    return;
                }
                if let Some(d) = every {
                    std::thread::sleep(d);
                }
            }
        }
        Action::Generate { head, body } => {
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut conn);
            if w.write_all(&head).is_ok() && body(&mut w).is_ok() {
                let _ = w.flush();
            }
        }
        Action::Hang { head, hold } => {
            let _ = conn.write_all(&head);
            pause(hold, stop);
        }
        Action::After(delay, then) => {
            pause(delay, stop);
            act(conn, *then, stop);
        }
    }
}

/// Sleep for `d`, or until the server stops.
fn pause(d: Duration, stop: &AtomicBool) {
    let until = Instant::now() + d;
    while Instant::now() < until && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(
            Duration::from_millis(20).min(until.saturating_duration_since(Instant::now())),
        );
    }
}

fn socket_linger_zero(conn: &TcpStream) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let l = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: a valid socket descriptor and a correctly sized linger struct.
    let r = unsafe {
        libc::setsockopt(
            conn.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            &l as *const libc::linger as *const libc::c_void,
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// The token endpoint's answer: TOKEN and REFRESH for a day.
pub fn token_response() -> Action {
    Action::Raw(json(
        200,
        &format!(
            r#"{{"access_token":"{}","expires_in":86400,"refresh_token":"{}","scope":"pipelines:run,stats:read","token_type":"Bearer"}}"#,
            super::TOKEN,
            super::REFRESH
        ),
    ))
}

/// A server that answers the token endpoint itself and everything else with
/// `f(request, n)`, `n` counting the other requests from 0.
pub fn with_token(f: impl Fn(&Seen, usize) -> Action + Send + Sync + 'static) -> FaultServer {
    let n = std::sync::atomic::AtomicUsize::new(0);
    FaultServer::start(move |r, _| {
        if r.path.starts_with("/v1/oauth/token") {
            token_response()
        } else {
            f(r, n.fetch_add(1, Ordering::SeqCst))
        }
    })
}

impl FaultServer {
    /// Requests other than token requests.
    pub fn api(&self) -> Vec<Seen> {
        self.seen()
            .into_iter()
            .filter(|s| !s.path.starts_with("/v1/oauth/token"))
            .collect()
    }
}

/// Run with client credentials (so a token request carries the secret)
/// against `base`, with `dir` as the config directory.
pub fn client_run(base: &str, dir: &std::path::Path, args: &[&str]) -> super::Out {
    super::ylem(
        args,
        &[
            ("YLEM_BASE_URL", base),
            ("YLEM_CLIENT_ID", super::CLIENT_ID),
            ("YLEM_CLIENT_SECRET", super::SECRET),
            ("YLEM_CONFIG_DIR", dir.to_str().unwrap()),
        ],
    )
}

/// `n` log entries of one run as a JSON array.
pub fn log_array(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"workflow_run_uuid":"9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a","task_uuid":"1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c{:02x}","task_type":"query","is_successful":true,"duration":{i},"output":"eyJvayI6dHJ1ZX0=","metric_value":1.5,"executed_at":"2024-01-13T18:36:58.123Z"}}"#,
                i % 256
            )
        })
        .collect();
    format!("[{}]", rows.join(","))
}

/// A last-run answer: a run at 2024-01-13 18:36:58 that succeeded in 1.2 s.
pub const LAST_RUN: &str =
    r#"{"is_successful":true,"executed_at":"2024-01-13 18:36:58","duration":1200}"#;

/// That last run's own log: its one entry, which confirms it.
pub const LAST_RUN_LOG: &str = r#"[{"workflow_run_uuid":"60b04f58-0000-4000-8000-000000000001","task_uuid":"d29fdd6c-4a5b-466f-bcac-c82e7015a133","task_type":"query","is_successful":true,"duration":1200,"output":"","executed_at":"2024-01-13T18:36:58Z"}]"#;

pub const STATS: &str = r#"{"num_of_successes":12,"num_of_failures":3,"average_duration":1534,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1200}"#;

/// Forward a request to the sandbox (at `base`) as it came, and its
/// answer back whole: a proxy in front of it that cuts off what a test
/// tells it to.
pub fn forward(base: &str, r: &Seen) -> Vec<u8> {
    let host = base.trim_start_matches("http://");
    let mut s = TcpStream::connect(host).unwrap();
    let mut head = format!(
        "{} {} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n",
        r.method, r.path
    );
    for (k, v) in &r.headers {
        if !["host", "connection", "content-length"].contains(&k.to_ascii_lowercase().as_str()) {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
    }
    head.push_str(&format!("content-length: {}\r\n\r\n", r.body.len()));
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(r.body.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    out
}
