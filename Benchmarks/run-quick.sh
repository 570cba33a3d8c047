#!/usr/bin/env bash
# Smoke run of the Slate benchmarks, for CI: builds the harness in release, runs every scenario with
# --quick (small sizes, few rounds, every iteration still verified), writes the JSON report, and
# checks that the report has the expected shape and every scenario the harness knows: raw first
# and a slate-*/grdb-* pair for every GRDB contender where the baseline is raw (there, and only there,
# also the `codable-floor` reference), sqlite3-shell first where it is the baseline (CSV import, which
# also reports peak memory), and null ratios in the codegen scenarios, which have no baseline.
# Compiler warnings in the harness's own sources fail it too.
#
#     bash Benchmarks/run-quick.sh            # from the repository root, or from anywhere
#
# SLATE_BENCH_JSON overrides the report path (default /tmp/slate-bench-quick.json).
#
# The smoke run leaves the `@Table` macro's `slate-macro` contenders out (SLATE_BENCH_WITHOUT_MACRO=1):
# a release build of swift-syntax alone takes about 7 minutes on 2 cores, and the macro's expansion is
# compiled and tested by `swift test` already. SLATE_BENCH_WITHOUT_MACRO=0 keeps them.
# It also leaves out the Vapor-stack peers (SLATE_BENCH_WITHOUT_PEERS=1: SQLiteNIO and Fluent), whose
# release build (SwiftNIO, SQLiteNIO's own SQLite, Fluent) would add tens of minutes to CI.
# SLATE_BENCH_WITHOUT_PEERS=0 keeps them.
set -euo pipefail
export SLATE_BENCH_WITHOUT_MACRO="${SLATE_BENCH_WITHOUT_MACRO:-1}"
export SLATE_BENCH_WITHOUT_PEERS="${SLATE_BENCH_WITHOUT_PEERS:-1}"

cd "$(dirname "${BASH_SOURCE[0]}")/.."
json="${SLATE_BENCH_JSON:-/tmp/slate-bench-quick.json}"
rm -f "$json"

# Build first so that warnings in the harness's own sources fail the run. Only slate-bench (and,
# for its build plugin, the SlateCLI tool): a plain `swift build` would also compile the `slate`
# executable and swift-argument-parser a second time, for the target platform.
swift build -c release --package-path Benchmarks --product slate-bench 2>&1 | tee /tmp/slate-bench-build.log | tail -n 3
if grep -E "warning:" /tmp/slate-bench-build.log | grep -vE "/\.build[^/]*/|/checkouts/" | grep -E "Benchmarks/Sources/"; then
    echo "run-quick: compiler warnings in the benchmark harness" >&2
    exit 1
fi

# Already built above: --skip-build, so that `swift run` does not plan and relink again.
swift run -c release --skip-build --package-path Benchmarks slate-bench --quick --json "$json"

# The scenarios the harness knows, one per line.
scenarios="$(swift run -c release --skip-build --package-path Benchmarks slate-bench --list | cut -f1)"

python3 - "$json" "$scenarios" <<'PY'
import json, math, sys

path, expected = sys.argv[1], sys.argv[2].split()
with open(path) as f:
    report = json.load(f)

errors = []
scenarios = report.get("scenarios")
if not isinstance(scenarios, list):
    sys.exit(f"{path}: no \"scenarios\" list")
names = [s.get("name") for s in scenarios]
for name in expected:
    if name not in names:
        errors.append(f"scenario {name} is missing")
for scenario in scenarios:
    name = scenario.get("name")
    if not isinstance(scenario.get("rows"), int) or scenario["rows"] <= 0:
        errors.append(f"{name}: bad rows {scenario.get('rows')!r}")
    if "baseline" not in scenario or scenario["baseline"] not in ("raw", "sqlite3-shell", None):
        errors.append(f"{name}: baseline is {scenario.get('baseline', 'missing')!r}, not \"raw\", \"sqlite3-shell\" or null")
    baseline = scenario.get("baseline")
    has_raw = baseline == "raw"
    results = scenario.get("results") or []
    contenders = [r.get("contender") for r in results]
    if not contenders:
        errors.append(f"{name}: no results")
    if len(set(contenders)) != len(contenders):
        errors.append(f"{name}: duplicate contenders: {contenders}")
    if not any(c.startswith("slate-") for c in contenders):
        errors.append(f"{name}: no slate-* contender")
    if has_raw:
        # Scenarios compared with the C API: raw first, and every GRDB contender has its Slate
        # counterpart (same suffix), so each comparison in the README has both sides.
        if contenders and contenders[0] != "raw":
            errors.append(f"{name}: the first contender is not raw: {contenders}")
        if not any(c.startswith("grdb-") for c in contenders):
            errors.append(f"{name}: no grdb-* contender")
        for c in contenders:
            if c.startswith("grdb-") and "slate-" + c[len("grdb-"):] not in contenders:
                errors.append(f"{name}: {c} has no slate-{c[len('grdb-'):]} counterpart")
    elif baseline == "sqlite3-shell":
        # The CSV import: the shell's .import first, and every contender's peak memory measured.
        if contenders and contenders[0] != "sqlite3-shell":
            errors.append(f"{name}: the first contender is not sqlite3-shell: {contenders}")
        for result in results:
            peak = result.get("peak_memory_bytes")
            if not isinstance(peak, int) or peak < 0:
                errors.append(f"{name}/{result.get('contender')}: bad peak_memory_bytes {peak!r}")
    elif "raw" in contenders:
        errors.append(f"{name}: a raw contender in a scenario whose baseline is null")
    for c in contenders:
        # `codable-floor` is a reference, not a peer: the C API plus the least any Decoder/Encoder
        # can do (Benchmarks/README.md), and `codable-floor-per-row` the same with a container per
        # row; they only make sense beside raw.
        if c in ("codable-floor", "codable-floor-per-row"):
            if not has_raw:
                errors.append(f"{name}: {c} in a scenario without a raw baseline")
        elif c not in ("raw", "sqlite3-shell") and not c.startswith(("slate-", "grdb-", "sqlitenio-", "fluent-")):
            errors.append(
                f"{name}: contender {c} is not raw, sqlite3-shell, codable-floor(-per-row), slate-*, grdb-*, sqlitenio-* or fluent-*")
    for result in results:
        keys = ["median_s", "min_s", "max_s", "rows_per_s"]
        if has_raw:
            keys.append("ratio_to_raw")
        if baseline is not None:
            keys.append("ratio_to_baseline")
        for key in keys:
            value = result.get(key)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                errors.append(f"{name}/{result.get('contender')}: bad {key} {value!r}")
        if not has_raw and ("ratio_to_raw" not in result or result["ratio_to_raw"] is not None):
            errors.append(f"{name}/{result.get('contender')}: ratio_to_raw should be null without a raw baseline")
        if baseline is None and ("ratio_to_baseline" not in result or result["ratio_to_baseline"] is not None):
            errors.append(f"{name}/{result.get('contender')}: ratio_to_baseline should be null without a baseline")
        peak = result.get("peak_memory_bytes", "missing")
        if peak is not None and not (isinstance(peak, int) and peak >= 0):
            errors.append(f"{name}/{result.get('contender')}: bad peak_memory_bytes {peak!r}")
        if all(isinstance(result.get(k), (int, float)) for k in ("min_s", "median_s", "max_s")):
            if not result["min_s"] <= result["median_s"] <= result["max_s"]:
                errors.append(f"{name}/{result.get('contender')}: min <= median <= max does not hold")

if errors:
    print("\n".join(f"run-quick: {e}" for e in errors), file=sys.stderr)
    sys.exit(1)
print(f"run-quick: {path} has all {len(expected)} scenarios: {', '.join(expected)}")
PY
