#!/usr/bin/env bash
# Slate's reliability tools (issue 13, docs/RELIABILITY.md), short runs with fixed seeds:
#   - slate-fuzz over the five domains (mutated SQL, values, mismatched decodes, random schemas,
#     damaged changesets),
#   - a type-check of a sample of the code `slate generate` wrote for the random schemas,
#   - the SIGKILL loop (WAL queue, WAL pool, rollback journal) and the 1-writer + 8-readers load,
#   - sync convergence: replicas, random writes, a lossy network, syncs killed with SIGKILL.
# Fails on any finding, type-check error or warning, lost commit, integrity failure, BUSY, broken
# snapshot or lost write. Needs the modules of the last `swift build --build-tests` (.ci/run).
#
#   .ci/fuzz.sh                 the CI run (about 2 minutes warm on 2 cores)
#   .ci/fuzz.sh --long          10× the cases, 200 kills, 60 s of load, 40 schemas type-checked
#   SEED=7 .ci/fuzz.sh          another seed (each run prints its replay commands)
#   COMPILE_SAMPLE=200 .ci/fuzz.sh   type-check more generated sources
set -euo pipefail
cd "$(dirname "$0")/.."

scale=1
kills=12
load_seconds=8
compile_sample=6
converge_writes=2000
converge_kills=12
if [ "${1:-}" = "--long" ]; then
    scale=10; kills=200; load_seconds=60; compile_sample=40; converge_writes=20000; converge_kills=120
fi
compile_sample=${COMPILE_SAMPLE:-$compile_sample}
seed=${SEED:-13}

swift build --product slate-fuzz 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' | tail -n 2
fuzz=$(swift build --show-bin-path)/slate-fuzz

work=$(mktemp -d "${TMPDIR:-/tmp}/slate-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

step() { printf '\n-- %s\n' "$*"; }
started=$SECONDS

step "slate-fuzz: fuzz domains (seed $seed)"
"$fuzz" --domain sql --cases $((2000 * scale)) --seed "$seed"
"$fuzz" --domain values --cases $((400 * scale)) --seed "$seed"
"$fuzz" --domain decode --cases $((1000 * scale)) --seed "$seed"
"$fuzz" --domain changesets --cases $((1000 * scale)) --seed "$seed"
"$fuzz" --domain schemas --cases $((300 * scale)) --seed "$seed" \
    --schemas-out "$work/schemas" --compile-sample "$compile_sample"

step "type-checking $compile_sample generated sources against the built modules"
# The modules and the C module flags and macro plugin SwiftPM used for them (as
# .ci/check-snippets.sh finds them): generated code imports Slate, or CSQLite in the raw style.
bin=$(swift build --show-bin-path)
modules=$bin/Modules
[ -f "$modules/Slate.swiftmodule" ] || modules=$bin/Modules-tool
args_line=$(grep 'args: \[' .build/debug.yaml | grep '"-module-name","Slate",' | sed -n 1p)
mapfile -t cflags < <(sed 's/.*args: \[//; s/\]$//' <<<"$args_line" | tr ',' '\n' | tr -d '"' \
    | awk 'take { print "-Xcc"; print; take = 0; next } $0 == "-Xcc" { take = 1 }')
plugin=$(grep -o 'load-plugin-executable","-Xfrontend","[^"]*SlateMacrosPlugin[^"]*"' .build/debug.yaml | sed -n 1p \
    | sed 's/.*","//; s/"$//')
checked=0
for source in "$work"/schemas/*.swift; do
    [ -f "$source" ] || continue
    if ! swiftc -typecheck -parse-as-library -swift-version 6 -package-name FuzzSchemas -module-cache-path "$work/cache" -I "$modules" "${cflags[@]}" \
        ${plugin:+-load-plugin-executable "$plugin"} "$source" >"$work/typecheck.log" 2>&1 \
        || grep -q "warning:" "$work/typecheck.log"; then
        echo "generated code does not type-check cleanly: $(head -n 1 "$source")" >&2
        grep -E "error:|warning:" "$work/typecheck.log" | head -n 20 >&2
        sed -n '2,40p' "$source" | grep '^//' >&2
        exit 1
    fi
    checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || { echo "no generated source to type-check" >&2; exit 1; }
echo "$checked generated sources type-check without warnings"

step "slate-fuzz kill: $kills SIGKILLs"
"$fuzz" kill --kills "$kills" --seed "$seed"

step "slate-fuzz converge: sync convergence, $converge_writes writes, $converge_kills SIGKILLed syncs"
"$fuzz" converge --replicas 4 --writes "$converge_writes" --kills "$converge_kills" --seed "$seed"
"$fuzz" converge --replicas 3 --writes $((converge_writes / 2)) --kills $((converge_kills / 2)) --policy column --seed "$seed"

step "slate-fuzz load: ${load_seconds} s"
"$fuzz" load --seconds "$load_seconds" --readers 8 --seed "$seed"

echo
echo "reliability tools: clean ($((SECONDS - started)) s)"
