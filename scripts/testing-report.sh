#!/usr/bin/env bash
# Regenerate TESTING.md: run the scenario suites, each of which records what
# it proved under target/testing-report/, then assemble the records.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf "${CARGO_TARGET_DIR:-target}/testing-report"
cargo test --test it -- hostile:: ending::interrupts:: state::files:: errors::rejected_inputs:: \
    run::verdicts:: secrets::binding:: state::edges:: output::zones:: logs::whole::
cargo test --test it alias::parallel_alias_sets_keep_every_alias
# The oracle's property tests (the decoder against a reference) live in the
# client crate; they leave their records in the same place.
cargo test -p ylem-client --all-features oracle::
# The CLI's own property tests (time parser, IDs and aliases, the panic
# hook) are unit tests; they leave their records in the same place.
cargo test --lib props_tests::
YLEM_WRITE_TESTING=1 cargo test --test it docs::testing_report::
