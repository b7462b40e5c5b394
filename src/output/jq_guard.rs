//! The limits `--jq` is parsed and evaluated under, kept by the process's
//! allocator: on the `--jq` thread alone (`enter`), every allocation checks
//! how much of the thread's stack is used and how many bytes the thread
//! holds. A filter past either limit (`def f: 1+f; f`, `[range(1e9)]`, an
//! expression nested too deeply to parse) ends the process with an error
//! naming the limit and exit 2 (parsing) or 5 (evaluation), never a signal:
//! jaq has no limit of its own, and neither a stack overflow nor a failed
//! allocation can be recovered from once it happens. With `-o json` the
//! words are the tool's JSON error object, as every other error's. Output
//! not yet written to standard output when a limit is hit is dropped on
//! purpose: flushing it would take locks and allocate inside the allocator,
//! and a result cut by a limit is no valid answer anyway (the exit code
//! says so).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a limit is said as the JSON error object (`-o json|jsonl`).
static JSON_ERRORS: AtomicBool = AtomicBool::new(false);

/// Say a limit as the JSON error object from now on (or as text).
pub fn errors_as_json(on: bool) {
    JSON_ERRORS.store(on, Ordering::Relaxed);
}

/// The `--jq` thread's stack (`jq_worker`); a limit below it.
pub const STACK: usize = 64 << 20;
/// The stack the guard lets a filter use: what is left past it is margin
/// for the frames between two allocations.
const STACK_USED: usize = 48 << 20;
/// Bytes the `--jq` thread may hold at once.
pub const MEMORY: usize = 512 << 20;

/// What the `--jq` thread is doing, for the words and the exit code.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Parse,
    Run,
}

#[derive(Clone, Copy)]
struct Guard {
    phase: Phase,
    /// The lowest stack address the thread may reach (stacks grow down).
    floor: usize,
    held: usize,
}

thread_local! {
    static GUARD: Cell<Option<Guard>> = const { Cell::new(None) };
}

/// From now on the calling thread (the `--jq` thread, started with a stack
/// of `STACK` bytes) is held to the limits, doing `phase`.
pub fn enter(phase: Phase) {
    let here = stack_pointer();
    let held = GUARD.with(|g| g.get().map_or(0, |g| g.held));
    GUARD.with(|g| {
        g.set(Some(Guard {
            phase,
            floor: here.saturating_sub(STACK_USED),
            held,
        }))
    });
}

#[inline(always)]
fn stack_pointer() -> usize {
    let probe = 0u8;
    std::ptr::addr_of!(probe) as usize
}

/// The process's allocator: the system's, with the `--jq` thread's limits.
pub struct Guarded;

impl Guarded {
    #[inline]
    fn check(&self, grow: usize) {
        let _ = GUARD.try_with(|g| {
            let Some(mut guard) = g.get() else {
                return;
            };
            if stack_pointer() < guard.floor {
                die(guard.phase, Limit::Stack);
            }
            guard.held = guard.held.saturating_add(grow);
            if guard.held > MEMORY {
                die(guard.phase, Limit::Memory);
            }
            g.set(Some(guard));
        });
    }

    #[inline]
    fn release(&self, size: usize) {
        let _ = GUARD.try_with(|g| {
            if let Some(mut guard) = g.get() {
                if stack_pointer() < guard.floor {
                    die(guard.phase, Limit::Stack);
                }
                guard.held = guard.held.saturating_sub(size);
                g.set(Some(guard));
            }
        });
    }

    #[inline]
    fn failed(&self) {
        let _ = GUARD.try_with(|g| {
            if let Some(guard) = g.get() {
                die(guard.phase, Limit::Memory);
            }
        });
    }
}

// SAFETY: every call goes to `System` with the caller's layout; the guard
// only counts, and ends the process, allocating nothing.
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.check(layout.size());
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            self.failed();
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.check(layout.size());
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            self.failed();
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.release(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            self.check(new_size - layout.size());
        } else {
            self.release(layout.size() - new_size);
        }
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            self.failed();
        }
        p
    }
}

#[derive(Clone, Copy)]
enum Limit {
    Stack,
    Memory,
}

/// Say which limit was reached and end the process: nothing here may
/// allocate (this runs inside the allocator), so the words are fixed and
/// written straight to standard error, in pieces: as text, or as the
/// tool's JSON error object (the words hold nothing JSON must escape).
fn die(phase: Phase, limit: Limit) -> ! {
    let (kind, message, hint, code): (&[u8], &[u8], &[u8], i32) = match (phase, limit) {
        (Phase::Parse, Limit::Stack) => (
            b"usage",
            b"invalid --jq expression: nested too deeply to parse (the limit is 48 MiB of stack)",
            b"write it with fewer nested parentheses, pipes and operators",
            2,
        ),
        (Phase::Parse, Limit::Memory) => (
            b"usage",
            b"invalid --jq expression: too large to parse (the limit is 512 MiB of memory)",
            b"",
            2,
        ),
        (Phase::Run, Limit::Stack) => (
            b"server",
            b"--jq went past its recursion limit (48 MiB of stack): the filter recurses without end, or a value is nested too deeply",
            b"a recursive def needs a case that stops it",
            5,
        ),
        (Phase::Run, Limit::Memory) => (
            b"server",
            b"--jq went past its memory limit (512 MiB): the filter builds a value too large",
            b"stream results (.[] | ...) instead of collecting them ([...])",
            5,
        ),
    };
    let pieces: [&[u8]; 8] = if JSON_ERRORS.load(Ordering::Relaxed) {
        let (open_hint, close_hint): (&[u8], &[u8]) = match hint {
            b"" => (b"", b""),
            _ => (b"\",\"hint\":\"", b""),
        };
        [
            b"{\"error\":{\"kind\":\"",
            kind,
            b"\",\"message\":\"",
            message,
            open_hint,
            hint,
            close_hint,
            b"\"}}\n",
        ]
    } else {
        let (open_hint, close_hint): (&[u8], &[u8]) = match hint {
            b"" => (b"", b""),
            _ => (b"hint: ", b"\n"),
        };
        [
            b"error: ", message, b"\n", open_hint, hint, close_hint, b"", b"",
        ]
    };
    for p in pieces {
        // SAFETY: write(2) is async-signal-safe and allocates nothing.
        unsafe { libc::write(2, p.as_ptr().cast(), p.len()) };
    }
    // SAFETY: _exit(2) is async-signal-safe and allocates nothing.
    unsafe { libc::_exit(code) }
}

/// The `--jq` thread takes over `bytes` another thread allocated (it will
/// free them): counted as held.
pub fn adopt(bytes: usize) {
    let _ = GUARD.try_with(|g| {
        if let Some(mut guard) = g.get() {
            guard.held = guard.held.saturating_add(bytes);
            g.set(Some(guard));
        }
    });
}

/// The `--jq` thread hands `bytes` it allocated to another thread (which
/// frees them): no longer held.
pub fn hand_off(bytes: usize) {
    let _ = GUARD.try_with(|g| {
        if let Some(mut guard) = g.get() {
            guard.held = guard.held.saturating_sub(bytes);
            g.set(Some(guard));
        }
    });
}

#[global_allocator]
static ALLOC: Guarded = Guarded;
