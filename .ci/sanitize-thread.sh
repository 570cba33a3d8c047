#!/usr/bin/env bash
# Runs the concurrency tests (the suites named Concurrency* in SlateConcurrencyTests) under
# ThreadSanitizer and fails when the tests fail or when TSan reports anything, even a report that
# did not fail a test.
set -euo pipefail
cd "$(dirname "$0")/.."

log="$(mktemp "${TMPDIR:-/tmp}/slate-tsan.XXXXXX")"
trap 'rm -f "$log"' EXIT

echo "== swift test --sanitize=thread --filter 'SlateConcurrencyTests\.Concurrency'"
status=0
# SLATE_CORE_ONLY=1: the manifest keeps only the runtime and its tests (see Package.swift), so swift-syntax
# is not built again under TSan.
SLATE_CORE_ONLY=1 TSAN_OPTIONS="${TSAN_OPTIONS:-} halt_on_error=0 second_deadlock_stack=1" \
    swift test --sanitize=thread --scratch-path .build-tsan --filter 'SlateConcurrencyTests\.Concurrency' >"$log" 2>&1 || status=$?

# Show the outcome without the build noise.
grep -vE '^\[[0-9]+/[0-9]+\]' "$log" | tail -n 40

if grep -q "ThreadSanitizer" "$log"; then
    echo "ThreadSanitizer reported problems:" >&2
    grep -n -A 30 "WARNING: ThreadSanitizer" "$log" | head -n 200 >&2 || grep -n "ThreadSanitizer" "$log" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "the concurrency tests failed under ThreadSanitizer (exit status $status)" >&2
    exit "$status"
fi
echo "ThreadSanitizer: no reports"
