//! `ylemctl sandbox --help`: the text after the flags says what the sandbox
//! mirrors of each dialect. (The sandbox's HTTP checks are the sandbox
//! crate's own tests: crates/ylem-sandbox/tests/http/.)

/// `ylemctl sandbox --help` lists what the sandbox mirrors.
#[test]
fn sandbox_help_lists_the_dialect_behaviours() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .args(["sandbox", "--help"])
        .env_clear()
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for word in [
        "task graph",
        "newest first",
        "/_sandbox/runs/",
        "403",
        "--task-delay",
    ] {
        assert!(text.contains(word), "{word} missing from:\n{text}");
    }
}
