#!/usr/bin/env bash
# Regenerate TESTING.md: run the scenario suites, each of which records what
# it proved under target/testing-report/, then assemble the records.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf "${CARGO_TARGET_DIR:-target}/testing-report"
cargo test --test it -- faults:: bodies:: interrupts:: files:: props:: props_differential:: verdicts:: binding:: \
    hostile:: edges:: zones:: logs_whole:: hostile_text::
cargo test --test it operator::parallel_alias_sets_keep_every_alias
# The CLI's own property tests (time parser, IDs and aliases, the panic
# hook) are unit tests; they leave their records in the same place.
cargo test --lib props_tests::
YLEM_WRITE_TESTING=1 cargo test --test it testing_report::
