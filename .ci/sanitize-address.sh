#!/usr/bin/env bash
# Runs the runtime's tests (the test targets of its layers: SlateCoreTests, SlateConcurrencyTests,
# SlateQueryTests, SlateRecordsTests, SlateCSVTests) under AddressSanitizer, LeakSanitizer included,
# and fails when the tests fail or when ASan reports anything — a read of a finalized statement,
# an overflow, a leak not listed in .ci/lsan-suppressions.txt — even a report that did not fail a
# test. RowLifetimeTests keep rows' values past their statements; the rest of the suite covers
# every C-API path (statements, cursors, hooks, functions, backup, WAL, queues and pools). The fault
# tests (Tests/SlateFaultTests) run too, for the fault-injecting C VFS and the regression tests of
# its findings, but not their sweeps (thousands of runs, minutes under ASan; `swift test` runs them).
#
#   .ci/sanitize-address.sh [--filter REGEX]      (about 4 minutes cold on 2 cores, 20 s warm)
set -euo pipefail
cd "$(dirname "$0")/.."

# The whole log stays for reading every report's stack (the summary below shows the first 200 lines).
log="${TMPDIR:-/tmp}/slate-asan.log"

echo "== swift test --sanitize=address $*"
start=$SECONDS
status=0
# SLATE_CORE_ONLY=1: the manifest keeps only the runtime targets and their layers' tests (see
# Package.swift), so swift-syntax is not built under ASan. The scratch path is ASan's own, since
# SwiftPM caches the manifest's evaluation per scratch path. The tests use Swift Testing only.
SLATE_CORE_ONLY=1 \
ASAN_OPTIONS="${ASAN_OPTIONS:-} halt_on_error=0 detect_leaks=1 detect_stack_use_after_return=1" \
LSAN_OPTIONS="${LSAN_OPTIONS:-} suppressions=$PWD/.ci/lsan-suppressions.txt print_suppressions=0" \
    swift test --sanitize=address --scratch-path .build-asan --disable-xctest --skip "SweepTests" "$@" >"$log" 2>&1 || status=$?

# Show the outcome without the build noise.
grep -vE '^\[[0-9]+/[0-9]+\]' "$log" | grep -E "✘|error:|Test run with|Sanitizer" | tail -n 40 || true

if grep -qE "ERROR: (Address|Leak)Sanitizer|SUMMARY: AddressSanitizer|runtime error:" "$log"; then
    echo "AddressSanitizer reported problems:" >&2
    grep -n -A 40 -E "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log" | head -n 200 >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "the core tests failed under AddressSanitizer (exit status $status)" >&2
    exit "$status"
fi
echo "AddressSanitizer: no reports ($((SECONDS - start)) s)"
