#!/usr/bin/env bash
# What a client package pays to build Slate from scratch (issues 32 and 36): for each way of
# depending on Slate, a fresh client package in a fresh folder — a path dependency on this checkout,
# the products and traits of the row, and a `main.swift` that opens a `DatabaseQueue` — is resolved
# and built in debug with an empty build folder, and the script prints the packages fetched, the wall
# time and the CPU time (user + system) of `swift build`. CPU time moves much less than wall time
# when the machine is shared; both are printed.
#
#   bash Benchmarks/clean-build-cost.sh [row …]      rows: core macros server postgres plugin run-slate
#
# The rows:
#   core       Slate,                               traits: []
#   macros     Slate + SlateMacros (@Table),        traits: []
#   server     Slate + SlateTelemetry + Lifecycle,  traits: ["Server"]
#   postgres   Slate + SlatePostgres,               default traits (PostgreSQL, Server)
#   plugin     Slate + SlateBuildPlugin on a target with a schema file, traits: []
#   run-slate  `swift run slate --help` from the client package, traits: []
set -euo pipefail
slate="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rows=("$@")
[ "${#rows[@]}" -eq 0 ] && rows=(core macros server postgres plugin run-slate)
work="$(mktemp -d "${TMPDIR:-/tmp}/slate-build-cost.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# A client package: $1 folder, $2 traits ("" for the default), $3 products (space-separated), $4
# extra target settings (the plugin row).
client() {
    local dir=$1 traits=$2 products=$3 extra=${4:-}
    mkdir -p "$dir/Sources/App"
    local deps="" product
    for product in $products; do deps="$deps .product(name: \"$product\", package: \"Slate\"),"; done
    local traitsArgument=""
    [ -n "$traits" ] && traitsArgument=", traits: $traits"
    cat >"$dir/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Slate", path: "$slate"$traitsArgument)],
    targets: [.executableTarget(name: "App", dependencies: [$deps]$extra)]
)
EOF
    cat >"$dir/Sources/App/main.swift" <<'EOF'
import Slate

let queue = try DatabaseQueue()
let answer = try queue.read { db in try db.fetchOne(Int.self, "SELECT 42") }
print(answer ?? 0)
EOF
}

# Times `swift build` (or the command given) in $1; prints one table row named $2.
measure() {
    local dir=$1 name=$2
    shift 2
    (cd "$dir" && swift package resolve >"$work/$name-resolve.log" 2>&1) || { cat "$work/$name-resolve.log"; exit 1; }
    local fetched identities
    fetched=$(grep -c '"identity"' "$dir/Package.resolved" 2>/dev/null || echo 0)
    identities=$(grep '"identity"' "$dir/Package.resolved" 2>/dev/null | sed -E 's/.*: "([^"]+)".*/\1/' | paste -sd, - || true)
    local command=("$@")
    [ "${#command[@]}" -eq 0 ] && command=(swift build)
    local started=$SECONDS
    local times
    times=$( { cd "$dir" && TIMEFORMAT='%U %S' && time "${command[@]}" >"$work/$name-build.log" 2>&1; } 2>&1 | tail -n 1) \
        || { tail -n 30 "$work/$name-build.log"; exit 1; }
    local wall=$((SECONDS - started))
    local cpu
    cpu=$(echo "$times" | awk '{ printf "%d", $1 + $2 }')
    printf '| %s | %d (%s) | %d min %02d s | %d min %02d s | load %s |\n' "$name" "$fetched" "$identities" \
        $((wall / 60)) $((wall % 60)) $((cpu / 60)) $((cpu % 60)) "$(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "Clean debug builds of client packages depending on $slate ($(git -C "$slate" rev-parse --short HEAD)), $(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores"
echo
echo "| row | packages fetched | wall | CPU (user + system) | machine |"
echo "| --- | ---: | ---: | ---: | --- |"
for row in "${rows[@]}"; do
    dir="$work/$row"
    case "$row" in
        core) client "$dir" "[]" "Slate"; measure "$dir" "$row" ;;
        macros) client "$dir" "[]" "Slate SlateMacros"; measure "$dir" "$row" ;;
        server) client "$dir" '["Server"]' "Slate SlateTelemetry SlateLifecycle"; measure "$dir" "$row" ;;
        postgres) client "$dir" "" "Slate SlatePostgres"; measure "$dir" "$row" ;;
        plugin)
            client "$dir" "[]" "Slate" ', plugins: [.plugin(name: "SlateBuildPlugin", package: "Slate")]'
            printf 'CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL);\n' >"$dir/Sources/App/schema.sql"
            measure "$dir" "$row"
            ;;
        run-slate) client "$dir" "[]" "Slate"; measure "$dir" "$row" swift run slate --help ;;
        *) echo "unknown row: $row" >&2; exit 2 ;;
    esac
done
