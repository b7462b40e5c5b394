//! The slim build (`--no-default-features`: no embedded sandbox): `sandbox`
//! and `demo` are still commands, and say they need the feature (exit 2,
//! as JSON with -o json); everything else works as a client. Run with
//! `CARGO_TARGET_DIR=target/slim cargo test --no-default-features --test
//! slim` (a target directory of its own: the slim binary would otherwise
//! replace `target/debug/ylemctl`, which the other tests run); in the
//! default build this file is empty.
#![cfg(not(feature = "sandbox"))]

use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn ylemctl(args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = std::env::temp_dir().join(format!("ylemctl-slim-{}", std::process::id()));
    Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .env_clear()
        .env("YLEM_CONFIG_DIR", &dir)
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn sandbox_and_demo_say_they_need_the_feature() {
    for cmd in ["sandbox", "demo"] {
        let o = ylemctl(&[cmd], &[]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(o.stdout.is_empty(), "{cmd}: stdout {}", text(&o.stdout));
        assert!(
            err.contains(&format!("'ylemctl {cmd}' needs the embedded sandbox"))
                && err.contains("cargo feature 'sandbox'")
                && err.contains("hint: build ylemctl with its default features"),
            "{cmd}: {err}"
        );
        let o = ylemctl(&[cmd, "-o", "json"], &[]);
        assert_eq!(o.status.code(), Some(2));
        let v: Value = serde_json::from_str(text(&o.stderr).trim()).unwrap();
        assert_eq!(v["error"]["kind"], "usage", "{v}");
        // Their help is still there.
        let o = ylemctl(&[cmd, "--help"], &[]);
        assert_eq!(o.status.code(), Some(0));
    }
}

#[test]
fn the_client_works_without_the_sandbox() {
    let o = ylemctl(&["--version"], &[]);
    assert_eq!(o.status.code(), Some(0));
    let o = ylemctl(&["completions", "bash"], &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).contains("ylemctl"));
    // A real read against a sandbox started by the test (the crate, a
    // dev-dependency), not by the slim binary.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let sb = rt
        .block_on(ylem_sandbox::start(ylem_sandbox::Options {
            listen: ([127, 0, 0, 1], 0).into(),
            ..Default::default()
        }))
        .unwrap();
    let p = sb.pipelines[0].uuid.to_string();
    let env = [
        ("YLEM_BASE_URL", sb.base_url.as_str()),
        ("YLEM_CLIENT_ID", sb.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", sb.client_secret.as_str()),
    ];
    let o = ylemctl(&["last-run", "pipeline", &p, "-o", "json"], &env);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["executed_at"].is_string(), "{v}");
    rt.block_on(sb.shutdown());
}
