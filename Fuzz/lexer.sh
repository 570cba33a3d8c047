#!/usr/bin/env bash
# Coverage-guided fuzzing of the one SQL lexer with libFuzzer and AddressSanitizer. The lexer needs
# nothing but the standard library, so its three files are compiled alone with the harness.
#   Fuzz/lexer.sh [SECONDS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name Slate -module-name SlateLexerFuzz \
    Sources/SlateCore/SQLText/SQLLexer.swift Sources/SlateCore/SQLText/SQLLexer+Statements.swift \
    Sources/SlateCore/SQLText/SQLLexer+Lexemes.swift Fuzz/SQLLexerFuzzer.swift -o "$work/lexer-fuzzer"
mkdir -p "$work/corpus"
printf "SELECT 'a''b', \"x\", [y], x'00', ?1, :a, \$t::u(v), 1.5e3 -- c\n/* d */;" >"$work/corpus/seed"
"$work/lexer-fuzzer" -max_total_time="$seconds" -max_len=256 "$work/corpus"
