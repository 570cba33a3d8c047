#!/usr/bin/env bash
# Checks the one way the documentation tells users to depend on Slate (issue 36: three different
# manifest snippets, none of which named a version `from:` could resolve):
#
#   1. every `.package(url: …)` of Slate in the Markdown documents is the canonical line below,
#      with the version of CHANGELOG.md's first heading (`## Unreleased (0.1.0)`), optionally
#      followed by `traits: [...]`;
#   2. every `.product(name:package: "Slate")` and `.plugin(name:package: "Slate")` names a product
#      of Package.swift;
#   3. the manifest of the Getting started article resolves: a clone of this repository, tagged
#      with that version, stands in for the URL (a SwiftPM mirror), and `swift package resolve`
#      must find the version and the products.
#
#   .ci/check-manifest-snippet.sh [--no-resolve]
set -euo pipefail
cd "$(dirname "$0")/.."

url="https://github.com/slate-swift/Slate.git"
version=$(grep -m1 -E '^## ' CHANGELOG.md | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' || true)
if [ -z "$version" ]; then
    echo "check-manifest-snippet: CHANGELOG.md's first heading names no version (## Unreleased (X.Y.Z))" >&2
    exit 1
fi
canonical=".package(url: \"$url\", from: \"$version\""
failures=0
fail() { echo "check-manifest-snippet: $*" >&2; failures=$((failures + 1)); }

documents=$( { git ls-files --cached --others --exclude-standard -- '*.md' 2>/dev/null \
    || find . -name '*.md' -not -path './.build*' | sed 's|^\./||'; } | grep -vE '^CHANGELOG\.md$|(^|/)\.build' | sort -u)

# 1. The dependency line.
lines=0
while IFS= read -r match; do
    [ -z "$match" ] && continue
    lines=$((lines + 1))
    file=${match%%:*}
    rest=${match#*:}
    line=${rest%%:*}
    text=$(echo "${rest#*:}" | sed -E 's/^[[:space:]]+//')
    text=${text#dependencies: [}
    case "$text" in
        "$canonical)"* | "$canonical, traits: ["*) ;;
        *) fail "$file:$line: write the dependency as $canonical) (optionally with traits: […]), not: $text" ;;
    esac
done < <(echo "$documents" | xargs grep -nE '\.package\((name: *"Slate", *)?url: *"[^"]*[Ss]late' 2>/dev/null || true)
if [ "$lines" -eq 0 ]; then fail "no document shows the dependency on Slate"; fi

# 2. The products.
products=$(grep -oE '\.(library|executable|plugin)\(name: "[A-Za-z0-9_-]+"' Package.swift | sed -E 's/.*name: "([^"]+)"/\1/' | sort -u)
while IFS= read -r match; do
    [ -z "$match" ] && continue
    name=$(echo "$match" | sed -E 's/.*name: *"([^"]+)", *package: *"Slate".*/\1/')
    # A string match, not `echo | grep -q`: under `pipefail`, grep's early exit can end echo with
    # SIGPIPE and fail the pipeline although the name was found (seen once in CI).
    if [[ $'\n'"$products"$'\n' != *$'\n'"$name"$'\n'* ]]; then
        fail "${match%%:*}: no product \"$name\" in Package.swift (products: $(echo $products))"
    fi
done < <(echo "$documents" | xargs grep -noE '\.(product|plugin)\(name: *"[^"]+", *package: *"Slate"\)' 2>/dev/null || true)
if echo "$documents" | xargs grep -nE 'package: *"slate"' 2>/dev/null; then
    fail "the package is \"Slate\", as Package.swift names it"
fi

if [ "$failures" -gt 0 ]; then exit 1; fi
echo "check-manifest-snippet: $lines dependency line(s) are $canonical), and name existing products"
[ "${1:-}" = "--no-resolve" ] && exit 0

# 3. Resolution, against a tagged clone.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-hardlinks . "$work/Slate.git"
git -C "$work/Slate.git" tag "$version"
mkdir -p "$work/app/Sources/App"
# The article's manifest, as written.
awk '/^```swift$/ { block = ""; inside = 1; next }
     /^```$/ && inside { if (block ~ /import PackageDescription/) { printf "%s", block; exit } inside = 0; next }
     inside { block = block $0 "\n" }' Sources/Slate/Documentation.docc/GettingStarted.md >"$work/app/Package.swift"
grep -q "$canonical" "$work/app/Package.swift" || { echo "check-manifest-snippet: GettingStarted.md shows no manifest" >&2; exit 1; }
echo 'import Slate' >"$work/app/Sources/App/main.swift"
(
    cd "$work/app"
    swift package config set-mirror --original "$url" --mirror "$work/Slate.git"
    swift package resolve >"$work/resolve.log" 2>&1 || { cat "$work/resolve.log"; exit 1; }
    grep -q "\"version\" : \"$version\"" Package.resolved || { cat Package.resolved; exit 1; }
    # `traits: []` leaves out PostgreSQL: postgres-nio and SwiftNIO are not even fetched.
    if grep -qE "postgres-nio|swift-nio" Package.resolved; then
        echo "check-manifest-snippet: the SQLite-only manifest fetched postgres-nio or SwiftNIO:" >&2
        grep -E '"identity"' Package.resolved >&2
        exit 1
    fi
    # Loading the graph checks that the products the manifest names exist.
    swift package describe --type json >/dev/null 2>"$work/describe.log" || { cat "$work/describe.log"; exit 1; }
)
echo "check-manifest-snippet: GettingStarted.md's manifest resolves Slate $version"
