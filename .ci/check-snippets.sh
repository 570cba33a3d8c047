#!/usr/bin/env bash
# Compiles (to SIL, without linking) every ```swift block of the README, the DocC catalogs and the
# other Markdown documents against the modules of the last `swift build --build-tests`, and checks that every
# case in Tests/CompileFailures still fails to compile with the error it names. Fails on any
# error, on a warning other than an unused value, on a fenced block without a language, and on a
# removed or non-canonical spelling. docs/snippets/README.md explains the rules.
#
# Blocks marked `<!-- snippet-check: traits SQLCipher -->` (or whose context says so) compile
# against the SQLCipher build in .build-sqlcipher, which .ci/run makes first; without it they fail,
# unless --allow-missing-traits.
#
#   .ci/check-snippets.sh [--verbose] [--jobs N] [--allow-missing-traits] [FILE.md|FILE.swift ...]
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --verbose) args+=(--verbose) ;;
        --jobs) args+=(--jobs "$2"); shift ;;
        --allow-missing-traits) args+=(--allow-missing-traits) ;;
        *) files+=("$1") ;;
    esac
    shift
done

# The newer of SwiftPM's module directories under a scratch path that holds module $2 (SwiftPM
# keeps the modules built for the host, macros and what uses them, in Modules-tool).
modules_in() {
    local found="" candidate
    for candidate in "$1"/*/debug/Modules-tool "$1"/*/debug/Modules; do
        if [ -f "$candidate/$2.swiftmodule" ] && { [ -z "$found" ] || [ "$candidate/$2.swiftmodule" -nt "$found/$2.swiftmodule" ]; }; then
            found=$candidate
        fi
    done
    echo "$found"
}

modules=$(modules_in "$PWD/.build" SlateMacros)
if [ -z "$modules" ]; then
    echo "check-snippets: no built Slate modules under .build; run 'swift build --build-tests' first" >&2
    exit 2
fi
# SwiftPM's build description holds the C module flags and the macro plugin the build used.
description=.build/debug.yaml
# The SQLCipher trait's build (core only), for the blocks that need it.
sqlcipher=$(modules_in "$PWD/.build-sqlcipher" Slate)
if [ -n "$sqlcipher" ]; then args+=(--trait-build "SQLCipher=$sqlcipher,.build-sqlcipher/debug.yaml"); fi

swiftc=$(command -v swiftc)
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)
manifest_api="$toolchain/lib/swift/pm/ManifestAPI"

# The checker itself, rebuilt when its source changes.
work=.build/snippets
mkdir -p "$work"
checker="$work/check-snippets"
sources=(.ci/check-snippets/*.swift)
stale=false
[ -x "$checker" ] || stale=true
for source in "${sources[@]}"; do
    if [ "$source" -nt "$checker" ]; then stale=true; fi
done
if $stale; then
    swiftc -parse-as-library -swift-version 6 -module-cache-path "$work/ModuleCache" \
        "${sources[@]}" -o "$checker"
fi

if [ ${#files[@]} -eq 0 ]; then
    # Every Markdown document of the repository except the changelog (which quotes old APIs),
    # tracked or new, outside build directories; and every compile-failure case.
    while IFS= read -r file; do files+=("$file"); done < <(
        { git ls-files --cached --others --exclude-standard -- '*.md' 2>/dev/null \
            || find . -name '*.md' -not -path './.build*' -not -path './.git/*' | sed 's|^\./||'; } \
            | grep -vE '^(CHANGELOG\.md|docs/snippets/)' | grep -vE '(^|/)\.build' | sort -u)
    for file in Tests/CompileFailures/*.swift; do [ -f "$file" ] && files+=("$file"); done
    args+=(--check-contexts)
fi

exec "$checker" --root . --work "$work" --swiftc "$swiftc" -I "$modules" \
    --build-description "$description" \
    --manifest-api "$manifest_api" ${args[@]+"${args[@]}"} "${files[@]}"
