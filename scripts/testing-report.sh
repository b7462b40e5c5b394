#!/usr/bin/env bash
# Regenerate TESTING.md: run the scenario suites, each of which records what
# it proved under target/testing-report/, then assemble the records.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf "${CARGO_TARGET_DIR:-target}/testing-report"
cargo test --test faults --test bodies --test interrupts --test files --test props
cargo test --test operator parallel_alias_sets_keep_every_alias
YLEM_WRITE_TESTING=1 cargo test --test testing_report
