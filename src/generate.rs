//! Completion scripts and man pages rendered from `cli::command()`, for the
//! committed `completions/` and `man/` and the test that checks them.

use clap_complete::Shell;

use crate::cli;

/// Every generated file: (path relative to the repository, contents).
pub fn render_all() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for (shell, name) in [
        (Shell::Bash, "ylemctl.bash"),
        (Shell::Zsh, "_ylemctl"),
        (Shell::Fish, "ylemctl.fish"),
        (Shell::PowerShell, "_ylemctl.ps1"),
        (Shell::Elvish, "ylemctl.elv"),
    ] {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut cli::command(), "ylemctl", &mut buf);
        files.push((format!("completions/{name}"), buf));
    }
    let mut cmd = cli::command();
    cmd.build();
    man_pages(&cmd, "ylemctl", &mut files);
    files
}

/// One page per command and subcommand: `ylemctl.1`, `ylemctl-stats.1`, ...
fn man_pages(cmd: &clap::Command, name: &str, files: &mut Vec<(String, Vec<u8>)>) {
    let page = cmd.clone().name(clap::builder::Str::from(
        name.to_string().leak() as &'static str
    ));
    let mut buf = Vec::new();
    if clap_mangen::Man::new(page).render(&mut buf).is_ok() {
        files.push((format!("man/{name}.1"), buf));
    }
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        man_pages(sub, &format!("{name}-{}", sub.get_name()), files);
    }
}
