//! A log received on this task and decoded on a thread of its own, so that
//! taking the bytes off the socket (the kernel's copy, HTTP framing: what
//! `curl -o /dev/null` spends all its time on) overlaps decoding and
//! printing them, on a machine with a second core. The chunks go over a
//! bounded channel as they came from the network, so memory stays flat:
//! at most `CHUNKS` of them wait, each at most one read of the socket.
//!
//! The decoding thread counts the elements it completes, so that this task
//! gives up on a body that completes none for the stream's patience
//! (the read timeout), however many bytes keep arriving; time spent waiting for
//! the decoder (a slow reader of the output) does not count.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::{mpsc, oneshot};

use super::stream::{ArrayScanner, Decoded, Part, no_progress};
use crate::error::{Error, Result};

/// Chunks in flight between the two threads.
const CHUNKS: usize = 4;

/// What the receiving side hands over: a chunk, the body's failure, or
/// `None` at its end. A channel closed without `None` means the command
/// was ended (the caller dropped it): the decoder then stops, printing
/// nothing more.
type Piece = Option<Result<Bytes>>;

/// Decode the stream's elements on another thread with `decode`, which
/// gets `cx` (moved there, and handed back at the end); `idle` is called
/// there whenever everything received so far has been handed out (the
/// printer flushes), and once more after a failure, so that every whole
/// element before it is out. Both may fail with the caller's error `E`.
pub async fn decode_apart<S, C, E>(
    stream: super::stream::ArrayStream<S>,
    mut cx: C,
    idle: fn(&mut C) -> Result<(), E>,
    mut decode: impl FnMut(&mut C, &[u8], Part) -> Decoded<(), E> + Send + 'static,
) -> Result<C, E>
where
    S: futures_util::Stream<Item = Result<Bytes>> + Unpin,
    C: Send + 'static,
    E: From<Error> + Send + 'static,
{
    let (mut body, scanner, patience) = stream.into_parts();
    let (tx, rx) = mpsc::channel::<Piece>(CHUNKS);
    let (done_tx, mut done_rx) = oneshot::channel();
    let completed = Arc::new(AtomicU64::new(0));
    let counter = completed.clone();
    let thread = std::thread::Builder::new()
        .name("log-decoder".into())
        .spawn(move || {
            let r = match decode_all(rx, scanner, &counter, &mut cx, idle, &mut decode) {
                Ok(()) => Ok(cx),
                Err(Some(e)) => {
                    let _ = idle(&mut cx);
                    Err(e)
                }
                // Ended from outside: nobody waits for the outcome.
                Err(None) => return,
            };
            let _ = done_tx.send(r);
        })
        .map_err(|e| Error::internal(format!("cannot start the log decoder: {e}")))?;
    let (mut seen, mut since) = (0, tokio::time::Instant::now());
    loop {
        let now = completed.load(Ordering::Relaxed);
        if now != seen {
            (seen, since) = (now, tokio::time::Instant::now());
        }
        let by = since + patience;
        let piece = tokio::select! {
            done = &mut done_rx => return outcome(done, thread),
            next = tokio::time::timeout_at(by, body.next()) => match next {
                Ok(next) if tokio::time::Instant::now() <= by => next,
                // Ended here: the decoder gets the error as the body's own,
                // prints what it has and reports it.
                _ => Some(Err(no_progress(patience))),
            },
        };
        let last = !matches!(piece, Some(Ok(_)));
        let handing = tokio::time::Instant::now();
        tokio::select! {
            done = &mut done_rx => return outcome(done, thread),
            sent = tx.send(piece) => if sent.is_err() || last { break },
        }
        // Waiting for the decoder is not the server's time.
        since += handing.elapsed();
    }
    outcome(done_rx.await, thread)
}

/// The decoder's outcome; its panic goes on here, as if it had been ours.
fn outcome<C, E: From<Error>>(
    done: std::result::Result<Result<C, E>, oneshot::error::RecvError>,
    thread: std::thread::JoinHandle<()>,
) -> Result<C, E> {
    match done {
        Ok(done) => {
            let _ = thread.join();
            done
        }
        Err(_) => match thread.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => Err(Error::internal("the log decoder ended without its outcome").into()),
        },
    }
}

/// The decoding thread's loop: `Err(None)` when the receiving side went
/// away without saying the body ended.
fn decode_all<C, E: From<Error>>(
    mut rx: mpsc::Receiver<Piece>,
    mut scanner: ArrayScanner,
    completed: &AtomicU64,
    cx: &mut C,
    idle: fn(&mut C) -> Result<(), E>,
    decode: &mut impl FnMut(&mut C, &[u8], Part) -> Decoded<(), E>,
) -> std::result::Result<(), Option<E>> {
    loop {
        while scanner.take_as(|b, part| decode(cx, b, part))?.is_some() {
            completed.fetch_add(1, Ordering::Relaxed);
        }
        let piece = match rx.try_recv() {
            Ok(p) => p,
            Err(TryRecvError::Empty) => {
                idle(cx)?;
                rx.blocking_recv().ok_or(None)?
            }
            Err(TryRecvError::Disconnected) => return Err(None),
        };
        match piece {
            Some(chunk) => scanner.push(&chunk.map_err(E::from)?),
            None if scanner.is_done() => return Ok(()),
            None => {
                return Err(Some(
                    Error::server("the response ended before the JSON array was complete").into(),
                ));
            }
        }
    }
}
