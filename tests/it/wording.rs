//! Issue 36's smaller items, the built binary against the sandbox: counts of
//! one said in the singular, `check --window 0s` refused, `--listen
//! localhost:PORT`, `alias set` naming what it replaced, identical errors
//! of several IDs said once.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::sandbox::{Sandbox, start};

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `ylemctl metrics serve --listen LISTEN IDS`: its first line on stdout
/// (the banner), the process killed after.
fn serve_banner(sb: &Sandbox, listen: &str, ids: &[&str]) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .env(
            "YLEM_CONFIG_DIR",
            std::env::temp_dir().join("ylemctl-wording-none"),
        )
        .args(["metrics", "serve", "--listen", listen])
        .args(ids)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = Killed(c.spawn().unwrap());
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line
}

#[test]
fn one_entity_is_said_in_the_singular() {
    let sb = start("spec");
    let port = free_port();
    let one = serve_banner(&sb, &format!("127.0.0.1:{port}"), &[&sb.pipelines[0].0]);
    assert!(one.contains(" for 1 entity (cache "), "{one}");
    let port = free_port();
    let two = serve_banner(
        &sb,
        &format!("127.0.0.1:{port}"),
        &[&sb.pipelines[0].0, &sb.pipelines[1].0],
    );
    assert!(two.contains(" for 2 entities (cache "), "{two}");
}
