#!/usr/bin/env bash
# Smoke run of the Slate benchmarks, for CI: builds the harness in release, runs every scenario with
# --quick (small sizes, few rounds, every iteration still verified), writes the JSON report, and
# checks that the report has the expected shape and every scenario the harness knows. Compiler
# warnings in the harness's own sources fail it too.
#
#     bash Benchmarks/run-quick.sh            # from the repository root, or from anywhere
#
# SLATE_BENCH_JSON overrides the report path (default /tmp/slate-bench-quick.json).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
json="${SLATE_BENCH_JSON:-/tmp/slate-bench-quick.json}"
rm -f "$json"

# Build first so that warnings in the harness's own sources fail the run.
swift build -c release --package-path Benchmarks 2>&1 | tee /tmp/slate-bench-build.log | tail -n 3
if grep -E "warning:" /tmp/slate-bench-build.log | grep -vE "/\.build[^/]*/|/checkouts/" | grep -E "Benchmarks/Sources/"; then
    echo "run-quick: compiler warnings in the benchmark harness" >&2
    exit 1
fi

swift run -c release --package-path Benchmarks slate-bench --quick --json "$json"

# The scenarios the harness knows, one per line; the binary was just built by `swift run`.
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
    results = scenario.get("results") or []
    contenders = [r.get("contender") for r in results]
    if not contenders or contenders[0] != "raw":
        errors.append(f"{name}: the first contender is not raw: {contenders}")
    if not any(c.startswith("slate-") for c in contenders):
        errors.append(f"{name}: no slate-* contender")
    if not any(c.startswith("grdb-") for c in contenders):
        errors.append(f"{name}: no grdb-* contender")
    for result in results:
        for key in ("median_s", "min_s", "max_s", "ratio_to_raw"):
            value = result.get(key)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                errors.append(f"{name}/{result.get('contender')}: bad {key} {value!r}")
        if all(isinstance(result.get(k), (int, float)) for k in ("min_s", "median_s", "max_s")):
            if not result["min_s"] <= result["median_s"] <= result["max_s"]:
                errors.append(f"{name}/{result.get('contender')}: min <= median <= max does not hold")

if errors:
    print("\n".join(f"run-quick: {e}" for e in errors), file=sys.stderr)
    sys.exit(1)
print(f"run-quick: {path} has all {len(expected)} scenarios: {', '.join(expected)}")
PY
