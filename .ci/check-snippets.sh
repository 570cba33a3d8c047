#!/usr/bin/env bash
# Type-checks every ```swift block of the README, the DocC catalogs and the other Markdown
# documents against the modules of the last `swift build --build-tests`, and checks that every
# case in Tests/CompileFailures still fails to compile with the error it names. Fails on any
# error, on a warning other than an unused value, on a fenced block without a language, and on a
# removed or non-canonical spelling. docs/snippets/README.md explains the rules.
#
#   .ci/check-snippets.sh [--verbose] [--jobs N] [FILE.md|FILE.swift ...]
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --verbose) args+=(--verbose) ;;
        --jobs) args+=(--jobs "$2"); shift ;;
        *) files+=("$1") ;;
    esac
    shift
done

bin=$(swift build --show-bin-path)
# SwiftPM keeps the modules built for the host (macros and the tests that use them) in
# Modules-tool and the others in Modules; take the newer complete set.
modules=""
for candidate in "$bin/Modules-tool" "$bin/Modules"; do
    if [ -f "$candidate/SlateMacros.swiftmodule" ] && [ -f "$candidate/Slate.swiftmodule" ]; then
        if [ -z "$modules" ] || [ "$candidate/SlateMacros.swiftmodule" -nt "$modules/SlateMacros.swiftmodule" ]; then
            modules=$candidate
        fi
    fi
done
plugin=""
for candidate in "$bin/SlateMacrosPlugin-tool" "$bin/SlateMacrosPlugin"; do
    if [ -x "$candidate" ]; then plugin=$candidate; break; fi
done
if [ -z "$modules" ] || [ -z "$plugin" ]; then
    echo "check-snippets: no built Slate modules or macro plugin under $bin; run 'swift build --build-tests' first" >&2
    exit 2
fi

swiftc=$(command -v swiftc)
toolchain=$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)
manifest_api="$toolchain/lib/swift/pm/ManifestAPI"

# The checker itself, rebuilt when its source changes.
work=.build/snippets
mkdir -p "$work"
checker="$work/check-snippets"
if [ ! -x "$checker" ] || [ .ci/check-snippets.swift -nt "$checker" ]; then
    swiftc -parse-as-library -swift-version 6 -module-cache-path "$work/ModuleCache" \
        .ci/check-snippets.swift -o "$checker"
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
    --plugin "$plugin#SlateMacrosPlugin" \
    --flag -Xcc --flag "-fmodule-map-file=$PWD/Sources/CSQLite/module.modulemap" \
    --manifest-api "$manifest_api" ${args[@]+"${args[@]}"} "${files[@]}"
