#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (swiftc -sanitize=fuzzer) and AddressSanitizer, over the
# same domains as slate-fuzz (Fuzz/SlateLibFuzzer.swift). Not part of .ci/run: run it on demand.
#
#   .ci/libfuzzer.sh [sql|values|decode|schemas|changesets] [libFuzzer options…]
#   .ci/libfuzzer.sh sql -max_total_time=600 -jobs=2
#
# Builds the fuzz library and its dependencies with coverage instrumentation into .build-libfuzzer
# (SwiftPM, -Xswiftc -sanitize=fuzzer,address), links the entry point against them with libFuzzer,
# and runs it with a corpus directory under .build-libfuzzer/corpus/DOMAIN. Crashes are written as
# crash-* files in the current directory; `slate-libfuzzer crash-…` replays one.
set -euo pipefail
cd "$(dirname "$0")/.."

domain=${1:-sql}
shift || true
scratch=.build-libfuzzer

swift build --target SlateFuzzing --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address 2>&1 \
    | grep -vE '^\[[0-9]+/[0-9]+\]' | tail -n 3
build=$(swift build --scratch-path "$scratch" --show-bin-path)
objects=()
for target in CSQLite SlateCore SlateConcurrency SlateQuery SlateRecords Slate SlateSchema SlateCodeModel SlateGenerator SlateSync SlateFuzzing; do
    for object in "$build/$target.build"/*.o; do [ -f "$object" ] && objects+=("$object"); done
done
flags=$(grep 'args: \[' "$scratch/debug.yaml" | grep '"-module-name","SlateFuzzing",' | sed -n 1p \
    | sed 's/.*args: \[//; s/\]$//' | tr ',' '\n' | tr -d '"' \
    | awk 'take { print "-Xcc"; print; take = 0; next } $0 == "-Xcc" { take = 1 }')
mapfile -t cflags <<<"$flags"
swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -g \
    -I "$build/Modules" "${cflags[@]}" Fuzz/SlateLibFuzzer.swift "${objects[@]}" -lsqlite3 \
    -o "$build/slate-libfuzzer"
echo "built $build/slate-libfuzzer"

corpus="$scratch/corpus/$domain"
mkdir -p "$corpus"
SLATE_FUZZ_DOMAIN=$domain SLATE_FUZZ_DATA="$PWD/Tests/SlateTestSupport/Resources" \
ASAN_OPTIONS="${ASAN_OPTIONS:-} detect_leaks=0" SWIFT_BACKTRACE=enable=no \
    exec "$build/slate-libfuzzer" "$corpus" -max_len=4096 "$@"
