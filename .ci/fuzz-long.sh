#!/usr/bin/env bash
# The long fuzz run of issue 34 (not CI): at least 1,000,000 cases per domain of `slate-fuzz`
# (docs/RELIABILITY.md), in chunks of CHUNK cases, chunk k with seed SEED+k, so that a run can stop
# and resume, and any finding replays alone (`slate-fuzz --domain D --seed SEED+k --case I`). The
# domains take turns chunk by chunk. Prints, per domain, the cases run, the findings and the time,
# summed over the chunks.
#
#   .ci/fuzz-long.sh                                   1,000,000 cases per domain, seed 2026, release build
#   CASES=2000000 CHUNK=50000 SEED=7 .ci/fuzz-long.sh  other figures
#   DOMAINS=sql,decode .ci/fuzz-long.sh                some domains
#   OUT=/tmp/fuzz-2026 .ci/fuzz-long.sh                where the chunk logs go (and where a rerun resumes)
#   .ci/fuzz-long.sh --summary                         only print the totals of the logs in OUT
#   FUZZ=.build/release/slate-fuzz .ci/fuzz-long.sh    use that binary, without building
#   NICE=0 .ci/fuzz-long.sh                            the chunks at that niceness (default 19)
#   LANES=2 LANE=0 .ci/fuzz-long.sh &                  chunks k with k % 2 == 0 (start LANE=1 beside it
#   LANES=2 LANE=1 .ci/fuzz-long.sh &                  with the same OUT: two cores, no chunk run twice)
#
# On a shared machine it runs under `nice -n 19`, one chunk at a time. A release build of slate-fuzz
# (about 10 minutes on 2 cores) runs the cases several times faster than a debug one; set
# CONFIGURATION=debug to use the last debug build instead.
set -euo pipefail
cd "$(dirname "$0")/.."

cases=${CASES:-1000000}
chunk=${CHUNK:-20000}
seed=${SEED:-2026}
domains=${DOMAINS:-sql,values,decode,schemas}
configuration=${CONFIGURATION:-release}
out=${OUT:-$PWD/.build-fuzz-long/seed-$seed}
lanes=${LANES:-1}
lane=${LANE:-0}
mkdir -p "$out"

summary() {
    printf '%-8s %12s %10s %12s\n' domain cases findings seconds
    local domain
    for domain in ${domains//,/ }; do
        # Each chunk's log has one line "  DOMAIN: N cases in S s, F findings".
        cat "$out/$domain".*.log 2>/dev/null | awk -v d="$domain" '
            $1 == d":" && $3 == "cases" { n += $2; s += $5; f += $7 }
            END { printf "%-8s %12d %10d %12.0f\n", d, n, f, s }'
    done
}

if [ "${1:-}" = "--summary" ]; then
    summary
    exit 0
fi

if [ -n "${FUZZ:-}" ]; then
    fuzz=$FUZZ  # a slate-fuzz already built: no build, no wait for another build's lock
else
    nice -n 19 swift build -c "$configuration" -j 1 --product slate-fuzz 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' | tail -n 2
    fuzz=$(swift build -c "$configuration" --show-bin-path)/slate-fuzz
fi

chunks=$(((cases + chunk - 1) / chunk))
status=0
# Chunk by chunk across the domains, so that a run stopped early has figures for each of them.
for ((k = lane; k < chunks; k += lanes)); do
    for domain in ${domains//,/ }; do
        log="$out/$domain.$k.log"
        # A chunk whose log ends with its summary is done: a rerun resumes after it.
        if [ -f "$log" ] && grep -q "cases in" "$log"; then continue; fi
        if ! nice -n "${NICE:-19}" "$fuzz" --domain "$domain" --cases "$chunk" --seed $((seed + k)) >"$log.tmp" 2>&1; then
            status=1
            echo "finding in $domain, seed $((seed + k)) (log: $log)" >&2
            grep -E "replay|finding|--case" "$log.tmp" | head -n 20 >&2 || true
        fi
        mv "$log.tmp" "$log"
        printf '%s chunk %d/%d: %s\n' "$domain" $((k + 1)) "$chunks" "$(grep -E "^  $domain:" "$log" || echo "no summary")"
    done
done
summary
exit "$status"
