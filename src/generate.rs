//! Completion scripts and man pages rendered from `cli::command()`, for the
//! committed `completions/` and `man/` and the test that checks them.

use clap_complete::Shell;

use crate::cli;

/// Commands whose positional IDs may be aliases.
const ID_COMMANDS: &str = "run logs stats aggregate last-run check";

/// The completion script for `shell`: clap's, plus alias names for IDs
/// where the shell lets a script add words at run time (bash, fish).
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cli::command(), "ylemctl", &mut buf);
    match shell {
        Shell::Bash => buf.extend_from_slice(
            format!(
                r#"
# Alias names (ylemctl alias list) complete wherever an ID may stand.
_ylemctl_with_aliases() {{
    _ylemctl "$@"
    local cur="${{COMP_WORDS[COMP_CWORD]}}" w
    [[ "$cur" == -* ]] && return 0
    for w in "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"; do
        case " {ID_COMMANDS} " in
            *" $w "*)
                COMPREPLY+=( $(compgen -W "$(ylemctl alias list --names 2>/dev/null)" -- "$cur") )
                return 0 ;;
        esac
    done
}}
complete -F _ylemctl_with_aliases -o nosort -o bashdefault -o default ylemctl
"#
            )
            .as_bytes(),
        ),
        Shell::Fish => buf.extend_from_slice(
            format!(
                r#"
# Alias names (ylemctl alias list) complete wherever an ID may stand.
complete -c ylemctl -n "__fish_seen_subcommand_from {ID_COMMANDS}" -f -a "(ylemctl alias list --names 2>/dev/null)"
"#
            )
            .as_bytes(),
        ),
        _ => {}
    }
    buf
}

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
        files.push((format!("completions/{name}"), completion(shell)));
    }
    let mut cmd = cli::command();
    cmd.build();
    man_pages(&cmd, "ylemctl", &mut files);
    files
}

/// One page per command and subcommand: `ylemctl.1`, `ylemctl-stats.1`, ...
fn man_pages(cmd: &clap::Command, name: &str, files: &mut Vec<(String, Vec<u8>)>) {
    // The plain version: a page that named the commit would differ at
    // every commit and could never be checked in.
    let page = cmd
        .clone()
        .name(clap::builder::Str::from(
            name.to_string().leak() as &'static str
        ))
        .long_version(None::<&str>);
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
