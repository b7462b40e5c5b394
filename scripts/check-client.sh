#!/usr/bin/env bash
# The ylem-client crate is the service for any Rust program (issue 34): no
# CLI crate in its dependency tree, and its source (and outside/) name no
# ylemctl command, flag or YLEM_ variable: the CLI words hints, not the
# library. Exits 1 on any finding, or if the crate does not exist yet.
# Usage: scripts/check-client.sh
set -euo pipefail
cd "$(dirname "$0")/.."

crate=crates/ylem-client
if [ ! -d "$crate/src" ]; then
    echo "check-client: $crate is missing" >&2
    exit 1
fi
bad=0

# 1. Dependencies: what only a command-line program (terminal, arguments,
# config file, keyring, a server) needs.
cli_crates='clap|clap_complete|comfy-table|indicatif|keyring|toml|rpassword|axum|console|directories'
found=$(cargo tree -p ylem-client -e normal --prefix none --format '{p}' \
    | awk '{print $1}' | sort -u | grep -xE "$cli_crates" || true)
if [ -n "$found" ]; then
    echo "check-client: ylem-client depends on CLI crates:" $found >&2
    for c in $found; do cargo tree -p ylem-client -e normal -i "$c" >&2 || true; done
    bad=1
fi

# 2. Words of the CLI in the crate's source and in outside/, the program
# that uses the crate as another team would. Not in src/oracle/: the
# decoders' tests, built only for the crate's tests and the fuzz targets,
# record what they prove in TESTING.md's words, which name the CLI's flags.
dirs=("$crate/src" outside)
skip=(--exclude-dir=oracle --exclude-dir=target)
if grep -rnHi "${skip[@]}" --include='*.rs' 'ylemctl' "${dirs[@]}" >&2; then
    echo "check-client: the lines above name ylemctl" >&2
    bad=1
fi
if grep -rnH "${skip[@]}" --include='*.rs' -E 'YLEM_[A-Z0-9_]' "${dirs[@]}" >&2; then
    echo "check-client: the lines above name a YLEM_ variable" >&2
    bad=1
fi
# The CLI's long flags, from its man pages (generated from the clap
# definition and kept in sync by the tests): `\-\-base\-url` there.
mapfile -t flags < <(grep -ohE '\\-\\-[a-z][a-z0-9]*(\\-[a-z0-9]+)*' man/*.1 | sed 's/\\//g' | sort -u)
if [ ${#flags[@]} -lt 10 ]; then
    echo "check-client: found only ${#flags[@]} long flags in man/*.1; cannot check" >&2
    exit 1
fi
# One pattern: --name not followed by more of a flag's name.
alt=$(printf '%s\n' "${flags[@]}" | sed 's/^--//' | paste -sd'|')
if grep -rnH "${skip[@]}" --include='*.rs' -E -- "(^|[^A-Za-z0-9-])--($alt)([^A-Za-z0-9-]|\$)" "${dirs[@]}" >&2; then
    echo "check-client: the lines above name a long flag of ylemctl (${#flags[@]} known)" >&2
    bad=1
fi

if [ "$bad" = 0 ]; then
    echo "check-client: ylem-client has no CLI crate and names no ylemctl command, flag (${#flags[@]} checked) or YLEM_ variable"
fi
exit "$bad"
