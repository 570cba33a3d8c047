#!/usr/bin/env bash
# Issue 34's fault sweeps (docs/RELIABILITY.md): every operation of Tests/SlateFaultTests run once
# per I/O fault point and fault kind through SlateTesting's fault-injecting VFS, the SQLCipher
# rekey and export sweeps in the SQLCipher build, and the PostgreSQL faults. Prints one line per
# sweep (fault points run out of the calls counted per kind, faults injected, errors surfaced, and
# the findings per category, all of which must be 0) and keeps each sweep's full report.
#
#   .ci/fault-sweep.sh              the seeded samples `swift test` runs in CI (a few minutes)
#   .ci/fault-sweep.sh --full       every fault point of every sweep: the README's figures
#   .ci/fault-sweep.sh --points 40  at most 40 points per operation and kind
#   SLATE_FAULT_SEED=7 .ci/fault-sweep.sh   another sample
#
# Needs the last `swift build --build-tests` (.ci/run), and for the SQLCipher sweeps the build
# `SLATE_CORE_ONLY=1 swift build --build-tests --traits SQLCipher --scratch-path .build-sqlcipher`
# (skipped with a note when it is missing). Reports go to $SLATE_FAULT_REPORT_DIR (default
# .build/fault-sweeps).
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    --full) export SLATE_FAULT_SWEEP=full ;;
    --points) export SLATE_FAULT_SWEEP=$2 ;;
    "") ;;
    *) echo "usage: .ci/fault-sweep.sh [--full | --points N]" >&2; exit 2 ;;
esac
export SLATE_FAULT_REPORT_DIR=${SLATE_FAULT_REPORT_DIR:-$PWD/.build/fault-sweeps}
mkdir -p "$SLATE_FAULT_REPORT_DIR"
log=$SLATE_FAULT_REPORT_DIR/swift-test.log
start=$SECONDS

status=0
swift test --skip-build --filter "SlateFaultTests" >"$log" 2>&1 || status=$?
grep -E "^(fault sweep|PostgreSQL)" "$log" || true
grep -E "✘|error:" "$log" | head -n 40 || true
if [ "$status" -ne 0 ]; then
    tail -n 40 "$log"
    exit "$status"
fi

if [ -d .build-sqlcipher ]; then
    SLATE_CORE_ONLY=1 swift test --skip-build --traits SQLCipher --scratch-path .build-sqlcipher \
        --filter "RekeySweepTests" >"$log.sqlcipher" 2>&1 || status=$?
    grep -E "^fault sweep" "$log.sqlcipher" || true
    grep -E "✘|error:" "$log.sqlcipher" | head -n 40 || true
    if [ "$status" -ne 0 ]; then
        tail -n 40 "$log.sqlcipher"
        exit "$status"
    fi
else
    echo "(no SQLCipher build in .build-sqlcipher: the rekey and export sweeps did not run)"
fi
echo "fault sweeps: clean ($((SECONDS - start)) s; reports in $SLATE_FAULT_REPORT_DIR)"
