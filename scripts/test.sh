#!/usr/bin/env bash
# The README's test command: installs the outside programs the tests drive
# (Debian packages, by apt-get as root or through sudo, `apt-get update`
# first) when they
# are missing, checks each is then found, and runs `cargo test` (arguments
# are passed on), then the real-keyring test in a session bus. `.ci/run` runs it too, so CI and a fresh machine install
# the same list. A test that drives a program never skips when it is
# missing: it fails, so this script makes sure none is.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null; then
    echo "scripts/test.sh: cargo is required (https://rustup.rs)" >&2
    exit 1
fi

# What the tests drive for real, as "program package...": a Secret Service
# (a session bus and gnome-keyring) for the keyring tests, openssl to make
# a test CA, tinyproxy for the proxy tests, promtool/prometheus for the
# metrics tests, curl for the exporter's TLS and basic auth tests, the real
# jq that --jq's output is compared with (tests/it/output/jq.rs), tmux for watch's
# board in a real terminal, man for the man pages, nginx, and junitparser
# (Debian's python3 module) reading the -o junit reports (tests/it/output/junit.rs),
# libfaketime moving watch's wall clock (tests/it/watch/clock.rs; the
# workflow/task matrix past the settle time, tests/it/model/moments.rs)
# and setpriv
# running the mode tests as a non-root user (tests/it/state/modes.rs).
tools=(
    "gnome-keyring-daemon gnome-keyring"
    "dbus-run-session dbus"
    "openssl openssl"
    "tinyproxy tinyproxy"
    "promtool prometheus"
    "prometheus prometheus"
    "curl curl"
    "jq jq"
    "tmux tmux"
    "man man-db groff-base"
    "nginx nginx"
    "faketime faketime"
    "setpriv util-linux"
)
found() {
    case "$1" in
        nginx) command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] ;;
        junitparser) /usr/bin/python3 -c 'import junitparser' 2>/dev/null ;;
        *) command -v "$1" >/dev/null ;;
    esac
}
tools+=("junitparser python3 python3-junitparser")

missing() {
    for t in "${tools[@]}"; do
        set -- $t
        found "$1" || echo "$t"
    done
}

need=$(missing | cut -d' ' -f2- | tr '\n' ' ')
if [ -n "$need" ]; then
    # As root, or through sudo (not the whole script: cargo stays the
    # user's, on the user's PATH).
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null; then
            echo "scripts/test.sh: the tests drive programs that are missing; as root, run:" >&2
            echo "  apt-get update && apt-get install -y $need" >&2
            exit 1
        fi
        as_root=(sudo)
    fi
    echo "== installing $need"
    # --no-upgrade: a package already installed (its program only off PATH)
    # is left as it is, not upgraded under other users of the machine.
    # shellcheck disable=SC2086 # one word per package
    "${as_root[@]}" apt-get update &&
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-upgrade $need
    still=$(missing | cut -d' ' -f1 | tr '\n' ' ')
    if [ -n "$still" ]; then
        echo "scripts/test.sh: installed, yet not found (on PATH, or by /usr/bin/python3): $still" >&2
        exit 1
    fi
fi

# The export tests' receivers decode what ylemctl sends with the official
# definitions (tests/py: PyPI's opentelemetry-proto, openlineage-python,
# jsonschema), pinned in tests/py/requirements.txt, in a virtual
# environment of the build's own (never the system's Python), installed
# from PyPI when the list changed since (or an import fails); the tests run
# its python (YLEM_TEST_PYTHON).
target_dir="${CARGO_TARGET_DIR:-target}"
case "$target_dir" in /*) ;; *) target_dir="$(pwd)/$target_dir" ;; esac
venv="$target_dir/py-venv"
py_ok() { "$venv/bin/python" -c 'import opentelemetry.proto.collector.trace.v1.trace_service_pb2, openlineage.client, jsonschema, referencing' 2>/dev/null; }
if ! cmp -s tests/py/requirements.txt "$venv/requirements.txt" || ! py_ok; then
    echo "== python packages for the export tests (tests/py/requirements.txt)"
    if ! python3 -m venv "$venv" 2>/dev/null; then
        as_root=()
        [ "$(id -u)" -ne 0 ] && as_root=(sudo)
        "${as_root[@]}" apt-get update && "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-upgrade python3-venv
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r tests/py/requirements.txt
    py_ok || { echo "scripts/test.sh: the export tests' python packages do not import" >&2; exit 1; }
    cp tests/py/requirements.txt "$venv/requirements.txt"
fi
export YLEM_TEST_PYTHON="$venv/bin/python"

# The peak-RSS tests (tests/it/common/measured.rs) measure the binary users
# run, the release build, against issue 43's bounds as they are: built here
# from these sources right before the tests (a no-op when fresh; the tests
# also refuse a binary older than a source), and named to them. A plain
# `cargo test` measures the debug binary with an allowance for its code.
echo "== cargo build --release --bin ylemctl (the binary the memory tests measure)"
cargo build --release --bin ylemctl
YLEM_MEASURED_BIN="$target_dir/release/ylemctl"
export YLEM_MEASURED_BIN

# Six test threads on any machine, not one per core: the integration
# tests spend most of their time waiting on servers and child processes
# (at six threads on 2 cores the suite keeps 1.1 cores busy: 240 s
# against 560 s at two), so more
# threads than cores shortens the wall time without crowding the CPU.
# Set RUST_TEST_THREADS to choose another number.
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-6}"
echo "== cargo test $* (RUST_TEST_THREADS=$RUST_TEST_THREADS)"
cargo test "$@"

# The one test a plain `cargo test` cannot run (it shows as ignored there):
# the keyring store against a real Secret Service, in a session bus of its
# own with an unlocked gnome-keyring.
echo "== cargo test --test keyring -- --ignored (a real Secret Service)"
dbus-run-session -- bash -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; cargo test --test keyring -- --ignored'

