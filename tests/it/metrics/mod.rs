//! `metrics serve`, the built binary over loopback: the Prometheus text
//! (`prometheus`), fresh values (`fresh`), its log (`log`), its listener
//! (`web_config`), and against hostile and broken parties (issue 32): an
//! upstream that stalls (`deadline`: every scrape answered in time, SIGTERM
//! mid-scrape), clients that are slow, many or wrong (`server`: header
//! timeout, connection cap, basic auth; `flood`: idle and trickling
//! sockets by the hundred), endless bodies under a memory bound
//! (`hostile`). The exporter helpers are here.

mod deadline;
mod flood;
mod fresh;
mod hostile;
mod log;
mod prometheus;
mod server;
pub mod web_config;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{CLIENT_ID, SECRET};

/// The exporter, killed when dropped (also when an assertion fails).
pub struct Exporter {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Drop for Exporter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `metrics serve` against `base` with `args` (flags and IDs), stderr to
/// `err`, once it says where it serves.
pub fn exporter(base: &str, dir: &Path, args: &[&str], err: &Path) -> Exporter {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .env_clear()
        .env("YLEM_CONFIG_DIR", dir.join("cfg"))
        .env("YLEM_BASE_URL", base)
        .env("YLEM_CLIENT_ID", CLIENT_ID)
        .env("YLEM_CLIENT_SECRET", SECRET)
        .args(["metrics", "serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(err).unwrap())
        .spawn()
        .unwrap();
    let addr = serving_addr(&mut child);
    Exporter { child, addr }
}

/// `127.0.0.1:PORT` from the exporter's first line on stdout, where it
/// says where it serves.
pub fn serving_addr(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line.split("://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string()
}

/// A GET of /metrics with extra header lines: the status line, the body
/// and how long it took (`None`: no HTTP answer within `secs`).
pub fn scrape(addr: &str, headers: &[String], secs: u64) -> Option<(String, String, Duration)> {
    scrape_from(None, addr, headers, secs)
}

/// `scrape` from the loopback address `src` (127.0.0.1 when `None`).
pub fn scrape_from(
    src: Option<[u8; 4]>,
    addr: &str,
    headers: &[String],
    secs: u64,
) -> Option<(String, String, Duration)> {
    let t = Instant::now();
    let mut s = match src {
        Some(src) => connect_from(src, addr),
        None => std::net::TcpStream::connect(addr).ok()?,
    };
    s.set_read_timeout(Some(Duration::from_secs(secs))).ok()?;
    let mut req = format!("GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for h in headers {
        req.push_str(&format!("{h}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.lines().next()?.to_string();
    Some((status, body.to_string(), t.elapsed()))
}

/// A TCP connection to `addr` from the loopback address `src` (any of
/// 127.0.0.0/8), which the exporter counts as its own client address.
pub fn connect_from(src: [u8; 4], addr: &str) -> std::net::TcpStream {
    use std::os::fd::FromRawFd;
    let to: std::net::SocketAddrV4 = addr.parse().unwrap();
    let sin = |ip: [u8; 4], port: u16| libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from_ne_bytes(ip),
        },
        sin_zero: [0; 8],
    };
    let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: a fresh socket, and sockaddr_in values that outlive the calls.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0, "socket: {}", std::io::Error::last_os_error());
        let from = sin(src, 0);
        let r = libc::bind(fd, &from as *const _ as *const libc::sockaddr, len);
        assert_eq!(r, 0, "bind {src:?}: {}", std::io::Error::last_os_error());
        let dst = sin(to.ip().octets(), to.port());
        let r = libc::connect(fd, &dst as *const _ as *const libc::sockaddr, len);
        assert_eq!(r, 0, "connect {addr}: {}", std::io::Error::last_os_error());
        std::net::TcpStream::from_raw_fd(fd)
    }
}
