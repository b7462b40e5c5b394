//! Running `ylemctl` with stdout on a pseudo-terminal of a given size (as a
//! person's terminal, `script`, or a CI runner's 0x0 one), via `openpty`.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};

use super::Out;

/// Run with stdout (only) on a terminal of `cols` x `rows`; stderr is a
/// pipe. The environment is cleared but for `env` and PATH.
pub fn run(args: &[&str], env: &[(&str, &str)], cols: u16, rows: u16) -> Out {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes the two descriptors it opens; the pointers are
    // to locals that outlive the call.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(r, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env(
            "YLEM_CONFIG_DIR",
            std::env::temp_dir().join("ylemctl-pty-none"),
        );
    for (k, v) in env {
        c.env(k, v);
    }
    let child = c
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ylemctl");
    // The command holds the terminal's other end until dropped; reading
    // ends only when no one holds it.
    drop(c);
    // The terminal is read while the command writes, so a long table never
    // blocks on a full terminal buffer.
    let reader = std::thread::spawn(move || {
        let mut f = std::fs::File::from(master);
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        // EIO once the last writer has gone: the end of the output.
        while let Ok(n) = f.read(&mut chunk) {
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        buf
    });
    let o = child.wait_with_output().expect("wait for ylemctl");
    let stdout = reader.join().unwrap();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).replace("\r\n", "\n"),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}
