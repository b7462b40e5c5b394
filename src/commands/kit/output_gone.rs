//! Whether standard output has gone away (its reader closed the pipe, the
//! terminal hung up) while a follower has nothing to write: a follower
//! (`logs -f`, `watch`'s stream, `run --wait`, `runs --run R --wait`) may
//! wait minutes for its next line, and would only learn at that write that
//! nobody reads it. As GNU `tail -f` does, the descriptor is polled for an
//! error or a hang-up instead, so `... -f | head -1` ends with its reader.

use std::time::Duration;

/// How often standard output is looked at: a follower ends within this of
/// its reader going.
const EVERY: Duration = Duration::from_millis(200);

/// Resolves once standard output has gone (never while it is there, nor
/// for a regular file or `/dev/null`, which never report one). A
/// descriptor closed from the start (`>&-`) is `/dev/null` by then: Rust's
/// runtime opens it there, so that no file the command opens takes it.
pub async fn stdout_gone() {
    loop {
        if gone(1) {
            return;
        }
        tokio::time::sleep(EVERY).await;
    }
}

/// Whether `fd` reports an error, a hang-up or no open file: asked for no
/// event, `poll(2)` reports only those, at once.
#[cfg(unix)]
fn gone(fd: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    };
    // SAFETY: one valid pollfd, its count 1, no wait.
    let n = unsafe { libc::poll(&mut p, 1, 0) };
    n > 0 && p.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0
}

#[cfg(not(unix))]
fn gone(_: i32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use std::os::fd::AsRawFd;

    #[test]
    fn a_pipe_is_gone_when_its_reader_closes_it() {
        let (r, w) = std::io::pipe().unwrap();
        assert!(!super::gone(w.as_raw_fd()));
        drop(r);
        assert!(super::gone(w.as_raw_fd()));
        let f = tempfile::tempfile().unwrap();
        assert!(!super::gone(f.as_raw_fd()));
    }
}
