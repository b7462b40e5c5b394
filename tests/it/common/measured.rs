//! Peak-RSS measurement of one command (issue 43's property), shared by
//! every memory test (hostile, hostile::memory, runs::memory): which binary is
//! measured, the bound it is held to, and the run under an address-space
//! cap with its high-water mark sampled from `/proc/PID/status`.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The address space a child may map: a tokio binary maps a few hundred MB
/// of it (thread stacks, allocator arenas) and touches little; a read
/// without bound dies here (exit by abort) instead of taking the machine.
pub const ADDRESS_SPACE: u64 = 1 << 30;

/// The issue's bound on every command: 32 MB.
pub const ISSUE_KIB: i64 = 32 * 1000 * 1000 / 1024;
/// The issue's bound against one entry that never ends: 64 MiB.
pub const ONE_ENTRY_KIB: i64 = 64 * 1024;

/// The debug binary's own code and data resident over the release
/// binary's, measured (BENCHMARKS figures in notes/memory-docs.md): its
/// `--version` peaks at 17-28 MB where the release binary's is 7 MB, and
/// each path measured on both differs by 9-20 MB. Only a plain `cargo
/// test` (no `YLEM_MEASURED_BIN`) adds it: the property is the release
/// binary's, which `scripts/test.sh` builds and names.
pub const DEBUG_ALLOWANCE_KIB: i64 = 24 * 1024;

/// The binary measured: `YLEM_MEASURED_BIN` (scripts/test.sh sets it to
/// the release build of these sources), else the debug build under test.
pub fn binary() -> PathBuf {
    match std::env::var_os("YLEM_MEASURED_BIN") {
        Some(p) => {
            let p = PathBuf::from(p);
            assert_fresh(&p);
            p
        }
        None => PathBuf::from(env!("CARGO_BIN_EXE_ylemctl")),
    }
}

/// Whether the measured binary is the release build (the bounds are the
/// issue's own) rather than the debug one (the bounds plus the allowance).
pub fn is_release() -> bool {
    std::env::var_os("YLEM_MEASURED_BIN").is_some()
}

/// The bound a peak is held to: `issue_kib` on the release binary, plus
/// `DEBUG_ALLOWANCE_KIB` on the debug binary (its larger code, not ours).
pub fn bound(issue_kib: i64) -> i64 {
    if is_release() {
        issue_kib
    } else {
        issue_kib + DEBUG_ALLOWANCE_KIB
    }
}

/// A stale binary measures other code: every source of the workspace must
/// be older than it (scripts/test.sh builds it right before the tests).
fn assert_fresh(bin: &Path) {
    let built = std::fs::metadata(bin)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("YLEM_MEASURED_BIN={}: {e}", bin.display()));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut newer = Vec::new();
    for p in ["src", "crates", "Cargo.toml", "Cargo.lock", "build.rs"] {
        newest_under(&root.join(p), built, &mut newer);
    }
    assert!(
        newer.is_empty(),
        "YLEM_MEASURED_BIN={} is older than {newer:?}: run `cargo build --release --bin ylemctl` (scripts/test.sh does)",
        bin.display()
    );
}

fn newest_under(p: &Path, built: SystemTime, newer: &mut Vec<PathBuf>) {
    let Ok(m) = std::fs::metadata(p) else { return };
    if m.is_dir() {
        if p.ends_with("target") {
            return;
        }
        for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
            newest_under(&e.path(), built, newer);
        }
    } else if m.modified().is_ok_and(|t| t > built) && newer.len() < 5 {
        newer.push(p.to_path_buf());
    }
}

/// A command for the measured binary with a clean environment (PATH, a
/// config directory of its own, one malloc arena) under the address cap.
/// One arena: threads (the log's decoding thread, the runtime's) may each
/// grow an arena of their own, the allocator's noise, not what is kept.
pub fn command(config_dir: &Path) -> Command {
    let mut c = Command::new(binary());
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", config_dir)
        .env("MALLOC_ARENA_MAX", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        c.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: ADDRESS_SPACE,
                rlim_max: ADDRESS_SPACE,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &lim) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    c
}

/// What a measured run gave.
pub struct Measured {
    /// The exit code, -1 when ended by a signal.
    pub code: i32,
    /// stdout when kept, else empty (read and dropped as it came).
    pub stdout: String,
    pub stderr: String,
    /// The peak RSS in KiB (VmHWM, last sampled before the exit).
    pub peak_kib: i64,
    pub took: Duration,
}

/// The child's high-water mark of resident memory, from its own status.
/// (Not `wait4`'s `ru_maxrss`: Linux carries the parent's high-water mark
/// into a child across `exec`, so it would report the test harness's.)
pub fn vm_hwm(pid: u32) -> Option<i64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Run `c` (from `command`), sampling its peak every 5 ms until it exits;
/// killed, and the test failed, after `limit`. stdout is kept when
/// `keep_stdout`, else drained as it comes (a reader that keeps up).
pub fn run(mut c: Command, keep_stdout: bool, limit: Duration) -> Measured {
    let started = Instant::now();
    let mut child = c.spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        if keep_stdout {
            let _ = out.read_to_end(&mut s);
        } else {
            let _ = std::io::copy(&mut out, &mut std::io::sink());
        }
        String::from_utf8_lossy(&s).into_owned()
    });
    let mut err = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let mut peak = 0;
    let status = loop {
        if let Some(k) = vm_hwm(child.id()) {
            peak = peak.max(k);
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{c:?} still running after {limit:?} (peak {peak} KiB)");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Measured {
        code: status.code().unwrap_or(-1),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        peak_kib: peak,
        took: started.elapsed(),
    }
}
