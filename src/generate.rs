//! Completion scripts and man pages rendered from the command tree it is
//! given (`ylemctl::command()`), for the committed `completions/` and `man/`
//! and the test that checks them. It imports no module of the command line:
//! the tree is built above it, from the commands' table.

use clap_complete::Shell;

mod man;

/// Commands whose IDs come after a KIND and may be aliases.
const KIND_ID_COMMANDS: &str = "run stats aggregate last-run check";
/// Commands whose every argument is an ID or alias (no KIND first).
const ID_ONLY_COMMANDS: &str = "status serve";

/// The completion script for `shell`: clap's, plus alias names where an ID
/// goes (after the KIND, or `logs`' first argument) and after `alias
/// remove`, and file names after `--input @`, where the shell lets a script
/// add words at run time (bash, fish). Never an alias after an option,
/// whose value is not an ID.
pub fn completion(shell: Shell, tree: &mut clap::Command) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, tree, "ylemctl", &mut buf);
    match shell {
        Shell::Bash => buf.extend_from_slice(
            format!(
                r#"
# Alias names (ylemctl alias list) complete where an ID goes.
_ylemctl_with_aliases() {{
    _ylemctl "$@"
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" w cmd="" n=0
    _ylemctl_input_file "$cur" "$prev" "${{COMP_WORDS[COMP_CWORD-2]}}" && return 0
    [[ "$cur" == -* || "$prev" == -* ]] && return 0
    for w in "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"; do
        if [[ -z "$cmd" ]]; then
            case " {KIND_ID_COMMANDS} logs {ID_ONLY_COMMANDS} alias " in *" $w "*) cmd="$w" ;; esac
        elif [[ "$w" != -* ]]; then
            n=$((n + 1))
        fi
    done
    case "$cmd:$n" in
        logs:0|alias:1|status:*|serve:*) ;;
        logs:*|alias:*|:*) return 0 ;;
        *:0) return 0 ;;
    esac
    [[ "$cmd" == alias && "$prev" != remove ]] && return 0
    COMPREPLY+=( $(compgen -W "$(ylemctl alias list --names 2>/dev/null)" -- "$cur") )
}}
# --input @FILE: file names after the @. With @ in COMP_WORDBREAKS (the
# default) the @ is a word of its own in COMP_WORDS, yet the text replaced
# still begins with it: the names keep their @ either way.
_ylemctl_input_file() {{
    local cur="$1" prev="$2" before="$3"
    if [[ "$prev" == --input && "$cur" == @* ]]; then
        cur="${{cur#@}}"
    elif [[ "$prev" != @ || "$before" != --input ]]; then
        return 1
    fi
    COMPREPLY=( $(compgen -f -- "$cur" | sed 's/^/@/') )
}}
complete -F _ylemctl_with_aliases -o nosort -o bashdefault -o default ylemctl
"#
            )
            .as_bytes(),
        ),
        Shell::Fish => buf.extend_from_slice(
            format!(
                r#"
# Alias names (ylemctl alias list) complete where an ID goes.
complete -c ylemctl -n "__fish_seen_subcommand_from {KIND_ID_COMMANDS}; and __fish_seen_subcommand_from task pipeline workflow" -f -a "(ylemctl alias list --names 2>/dev/null)"
complete -c ylemctl -n "__fish_seen_subcommand_from logs {ID_ONLY_COMMANDS}" -f -a "(ylemctl alias list --names 2>/dev/null)"
complete -c ylemctl -n "__fish_seen_subcommand_from alias; and __fish_seen_subcommand_from remove" -f -a "(ylemctl alias list --names 2>/dev/null)"

# --input @FILE: file names after the @.
function __ylemctl_input_file
    set -l token (commandline -ct | string replace -r -- '^--input=' '')
    string match -q -- '@*' $token; or return
    __fish_complete_path (string sub -s 2 -- $token) | string replace -r -- '^' '@'
end
complete -c ylemctl -n "__fish_seen_subcommand_from run" -l input -r -a "(__ylemctl_input_file)"
"#
            )
            .as_bytes(),
        ),
        _ => {}
    }
    buf
}

/// Every generated file of `tree`: (path relative to the repository,
/// contents).
pub fn render_all(tree: clap::Command) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for (shell, name) in [
        (Shell::Bash, "ylemctl.bash"),
        (Shell::Zsh, "_ylemctl"),
        (Shell::Fish, "ylemctl.fish"),
        (Shell::PowerShell, "_ylemctl.ps1"),
        (Shell::Elvish, "ylemctl.elv"),
    ] {
        files.push((
            format!("completions/{name}"),
            completion(shell, &mut tree.clone()),
        ));
    }
    let mut cmd = tree;
    cmd.build();
    man_pages(&cmd, "ylemctl", &mut files);
    files
}

/// One page per command and subcommand: `ylemctl.1`, `ylemctl-stats.1`, ...
/// clap's sections (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, SUBCOMMANDS), then
/// the ones a man page reader looks for (`man::sections`).
fn man_pages(cmd: &clap::Command, name: &str, files: &mut Vec<(String, Vec<u8>)>) {
    let mut tree = Vec::new();
    page_tree(cmd, name, None, &mut tree);
    render_pages(cmd, name, &tree, files);
}

/// Every page with the page of its parent command.
fn page_tree(
    cmd: &clap::Command,
    name: &str,
    parent: Option<&str>,
    out: &mut Vec<(String, String)>,
) {
    out.push((name.to_string(), parent.unwrap_or("").to_string()));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        page_tree(sub, &format!("{name}-{}", sub.get_name()), Some(name), out);
    }
}

fn render_pages(
    cmd: &clap::Command,
    name: &str,
    tree: &[(String, String)],
    files: &mut Vec<(String, Vec<u8>)>,
) {
    // The plain version: a page that named the commit would differ at
    // every commit and could never be checked in.
    let page = cmd
        .clone()
        .name(clap::builder::Str::from(
            name.to_string().leak() as &'static str
        ))
        .version(env!("CARGO_PKG_VERSION"))
        .long_version(None::<&str>);
    let examples = page.get_after_help().map(|h| h.to_string());
    let man = clap_mangen::Man::new(page.clone());
    let mut buf = Vec::new();
    let rendered = (|| -> std::io::Result<()> {
        man.render_title(&mut buf)?;
        man.render_name_section(&mut buf)?;
        man.render_synopsis_section(&mut buf)?;
        man.render_description_section(&mut buf)?;
        if page.get_arguments().any(|a| !a.is_hide_set()) {
            man.render_options_section(&mut buf)?;
        }
        // clap's own list names `ylemctl-help(1)`, a page that does not exist.
        let subs: Vec<(String, String)> = page
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .map(|s| {
                let about = s.get_about().map(|a| a.to_string()).unwrap_or_default();
                (format!("{name}-{}", s.get_name()), about)
            })
            .collect();
        buf.extend_from_slice(man::subcommands(&subs).as_bytes());
        let see_also = related(name, tree);
        buf.extend_from_slice(man::sections(name, examples.as_deref(), &see_also).as_bytes());
        Ok(())
    })();
    if rendered.is_ok() {
        files.push((format!("man/{name}.1"), buf));
    }
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        render_pages(sub, &format!("{name}-{}", sub.get_name()), tree, files);
    }
}

/// Pages worth naming in SEE ALSO: the command's parent, its subcommands,
/// and the top page; only pages that exist.
fn related<'a>(page: &str, tree: &'a [(String, String)]) -> Vec<&'a str> {
    let parent = tree
        .iter()
        .find(|(n, _)| n == page)
        .map(|(_, p)| p.as_str());
    tree.iter()
        .filter(|(n, p)| {
            n != page
                && (Some(n.as_str()) == parent
                    || p == page
                    || (n == "ylemctl" && parent != Some("")))
        })
        .map(|(n, _)| n.as_str())
        .collect()
}
