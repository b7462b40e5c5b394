//! The `--jq` thread: it parses, compiles and runs the filter on a stack of
//! known size under the limits of `jq_guard`, and hands results back in
//! chunks over a bounded channel, so that the writer can stop waiting when
//! `--max-time` runs out (a filter such as `def f: f; f` never yields) and
//! memory stays flat whatever a filter prints. `env` and `$ENV` are the
//! process's environment without the variables that hold secrets.

use std::sync::mpsc::{self, Receiver, SyncSender};

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Ctx, Vars, data};
use jaq_json::Val;

use super::jq_guard::{self, Phase};
use crate::error::{Error, Result};

type Data = data::JustLut<Val>;

/// Bytes of results gathered before they are handed to the writer.
const CHUNK: usize = 64 * 1024;
/// Brackets nested deeper than this are refused before parsing.
pub const MAX_NESTING: usize = 1000;
/// An expression longer than this is refused before parsing.
pub const MAX_LENGTH: usize = 64 * 1024;

/// One value to filter, and where its results go.
pub struct Job {
    pub input: Vec<u8>,
    /// Escape the control characters of raw strings (a terminal).
    pub escape: bool,
    pub reply: SyncSender<Reply>,
}

/// What the thread says about a job: results, then how it ended.
pub enum Reply {
    Out(Vec<u8>),
    /// `Err`: why the filter failed on the value, in words.
    Done(std::result::Result<(), String>),
}

/// Start the thread with `expr` compiled; the jobs it takes.
pub fn start(expr: &str) -> Result<mpsc::Sender<Job>> {
    check_shape(expr)?;
    let (compiled_tx, compiled_rx) = mpsc::channel::<Result<()>>();
    let (jobs_tx, jobs_rx) = mpsc::channel::<Job>();
    let code = expr.to_string();
    std::thread::Builder::new()
        .name("jq".into())
        .stack_size(jq_guard::STACK)
        .spawn(move || {
            jq_guard::enter(Phase::Parse);
            let filter = match compile(&code) {
                Ok(f) => f,
                Err(e) => {
                    let _ = compiled_tx.send(Err(e));
                    return;
                }
            };
            let _ = compiled_tx.send(Ok(()));
            jq_guard::enter(Phase::Run);
            serve(&filter, jobs_rx);
        })
        .map_err(|e| Error::internal(format!("cannot start the --jq thread: {e}")))?;
    compiled_rx
        .recv()
        .map_err(|_| Error::internal("the --jq thread ended while compiling"))??;
    Ok(jobs_tx)
}

/// Refuse an expression nested deeper or longer than the limits, counting
/// brackets outside string literals.
fn check_shape(expr: &str) -> Result<()> {
    if expr.len() > MAX_LENGTH {
        return Err(super::jq_text::invalid(
            expr,
            &[format!("longer than {MAX_LENGTH} bytes (the limit)")],
        ));
    }
    let (mut depth, mut deepest, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for c in expr.chars() {
        match c {
            _ if esc => esc = false,
            '\\' if in_str => esc = true,
            '"' => in_str = !in_str,
            '(' | '[' | '{' if !in_str => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | ']' | '}' if !in_str => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_NESTING {
        return Err(super::jq_text::invalid(
            expr,
            &[format!(
                "nested {deepest} levels deep (the limit is {MAX_NESTING} levels of brackets)"
            )],
        ));
    }
    Ok(())
}

fn compile(expr: &str) -> Result<jaq_core::Filter<Data>> {
    // `env` is defined over `$ENV`, which holds no secret (`safe_env`).
    let own = jaq_core::load::parse("def env: $ENV;", |p| p.defs())
        .ok_or_else(|| Error::internal("the --jq definition of env does not parse"))?;
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .chain(own);
    let funs = jaq_core::funs()
        .chain(jaq_std::funs().filter(|f| f.0 != "env"))
        .chain(jaq_json::funs());
    let loader = Loader::new(defs);
    let arena = Arena::default();
    let file = File {
        code: expr,
        path: (),
    };
    let modules = loader
        .load(&arena, file)
        .map_err(|errs| super::jq_text::load_error(expr, errs))?;
    jaq_core::Compiler::default()
        .with_funs(funs)
        .with_global_vars(["$ENV"])
        .compile(modules)
        .map_err(|errs| {
            let said: Vec<String> = errs
                .into_iter()
                .flat_map(|(_, v)| v)
                .map(|(name, undef)| {
                    format!(
                        "undefined {} {name} {}",
                        undef.as_str(),
                        super::jq_text::at(expr, name)
                    )
                })
                .collect();
            super::jq_text::invalid(expr, &said)
        })
}

/// Run each job in turn until the writer lets go of the thread.
fn serve(filter: &jaq_core::Filter<Data>, jobs: Receiver<Job>) {
    let env = safe_env();
    for job in jobs {
        jq_guard::adopt(job.input.capacity());
        let mut out = Chunks {
            buf: Vec::with_capacity(CHUNK),
            reply: &job.reply,
            gone: false,
        };
        let done = run(filter, &env, &job.input, &mut out, job.escape);
        drop(job.input);
        if out.gone {
            continue;
        }
        out.send();
        let _ = job.reply.send(Reply::Done(done));
    }
}

fn run(
    filter: &jaq_core::Filter<Data>,
    env: &Val,
    input: &[u8],
    out: &mut Chunks<'_>,
    escape: bool,
) -> std::result::Result<(), String> {
    let value = jaq_json::read::parse_single(input)
        .map_err(|e| format!("the output is not JSON ({e}): --jq filters -o json or jsonl"))?;
    let ctx = Ctx::<Data>::new(&filter.lut, Vars::new([env.clone()]));
    for result in filter.id.run((ctx, value)) {
        match result {
            Ok(v) => {
                if let Err(deep) = fits(&v) {
                    // Dropping it would recurse as deep as it is nested.
                    std::mem::forget(v);
                    return Err(deep);
                }
                super::jq_text::print(out, &v, escape).map_err(|e| e.to_string())?;
                if out.gone {
                    return Ok(());
                }
            }
            Err(exn) => match exn.get_err() {
                Ok(e) => return Err(e.to_string()),
                Err(exn) => match exn.get_halt() {
                    Ok(0) => break,
                    Ok(code) => return Err(format!("halted with code {code}")),
                    Err(_) => return Err("unexpected exception".into()),
                },
            },
        }
    }
    Ok(())
}

/// Results nested deeper than this are refused: printing one recurses.
const MAX_DEPTH: usize = 10_000;

/// Whether `v` is nested at most `MAX_DEPTH` levels, found without
/// recursion.
fn fits(v: &Val) -> std::result::Result<(), String> {
    let mut todo: Vec<(&Val, usize)> = vec![(v, 1)];
    while let Some((v, d)) = todo.pop() {
        if d > MAX_DEPTH {
            return Err(format!(
                "a result is nested deeper than {MAX_DEPTH} levels (the limit)"
            ));
        }
        match v {
            Val::Arr(a) => todo.extend(a.iter().map(|x| (x, d + 1))),
            Val::Obj(o) => todo.extend(o.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// Results gathered into chunks for the writer; `gone` once it stopped
/// listening (it ran out of time or failed to write).
struct Chunks<'a> {
    buf: Vec<u8>,
    reply: &'a SyncSender<Reply>,
    gone: bool,
}

impl Chunks<'_> {
    fn send(&mut self) {
        if self.gone || self.buf.is_empty() {
            return;
        }
        let full = std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK));
        jq_guard::hand_off(full.capacity());
        self.gone = self.reply.send(Reply::Out(full)).is_err();
    }
}

impl std::io::Write for Chunks<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= CHUNK {
            self.send();
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The environment as `env` and `$ENV` show it: without the variables that
/// hold a secret, by name (ylemctl's own and the collector's headers, and
/// any name that says secret, token, password or key) or by value (one
/// that holds a secret ylemctl read, whatever its name).
fn safe_env() -> Val {
    let vars = std::env::vars().filter(|(k, v)| !holds_secret(k, v));
    use jaq_core::ValT;
    Val::from_map(vars.map(|(k, v)| (Val::from(k), Val::from(v)))).unwrap_or_default()
}

/// Whether an environment variable holds a secret.
pub fn holds_secret(name: &str, value: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    let named = [
        "SECRET",
        "TOKEN",
        "PASSWORD",
        "PASSWD",
        "CREDENTIAL",
        "API_KEY",
        "PRIVATE_KEY",
        "OTLP_HEADERS",
        "AUTHORIZATION",
    ]
    .iter()
    .any(|w| upper.contains(w));
    // A proxy URL may carry a user and password.
    let proxy_with_user = upper.ends_with("_PROXY") && value.contains('@');
    named || proxy_with_user || crate::redact::scrub(value) != value
}
