#!/usr/bin/env bash
# Issue 36's UUID matching on an indexed lookup (see uuid-lookup.c): builds the program with -O2
# against the system SQLite, runs it for wall times, then under callgrind for the instructions of
# each case's counted round (one region per case). Needs valgrind and its headers.
#
#     bash Benchmarks/uuid-lookup/run.sh
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d /tmp/slate-uuid-lookup.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/uuid-lookup" uuid-lookup.c -lsqlite3
"$work/uuid-lookup"
nice -n 10 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" "$work/uuid-lookup" >/dev/null 2>&1
echo "instructions of one counted round (callgrind):"
for part in "$work"/cg.out.*; do
    name=$(sed -n 's/^desc: Trigger: Client Request: //p' "$part")
    total=$(awk '/^summary:/ {print $2}' "$part")
    lookups=100000
    [ "$name" = binary-nocase ] && lookups=20
    awk -v n="$name" -v t="$total" -v l="$lookups" 'BEGIN {printf "%-14s %14d instructions  %10.0f per lookup\n", n, t, t / l}'
done
