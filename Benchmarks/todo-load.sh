#!/usr/bin/env bash
# "Slate in a server" (issue 32): a bounded wrk load run on loopback against Examples/TodoServer
# (Slate) and Examples/TodoServerFluent (the same API with Fluent), on SQLite and on a throwaway
# PostgreSQL server, release builds. Prints requests/s, p50 and p99 latency and errors per run,
# and the instructions per request of each server process, counted under callgrind for a fixed
# sequence of the same mix (the PostgreSQL server's own work is not counted).
#
#     bash Benchmarks/todo-load.sh                 # about 10 minutes after the builds
#     DURATION=10 CONNECTIONS=16 bash Benchmarks/todo-load.sh
#     SERVERS=slate ENGINES=sqlite bash Benchmarks/todo-load.sh   # only Slate's server, only SQLite
#     COUNTED_REQUESTS=0 …                         # no callgrind count (the column reads "-")
#
# Not in CI: building Fluent and its drivers in release takes many minutes on 2 cores.
# Needs wrk and valgrind (apt-get install wrk valgrind) and Debian's postgresql.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-20}
connections=${CONNECTIONS:-16}
counted=${COUNTED_REQUESTS:-300}
servers=${SERVERS:-slate fluent}
engines=${ENGINES:-sqlite postgresql}
command -v wrk >/dev/null || { echo "todo-load: wrk is missing (apt-get install wrk)"; exit 1; }

packages=()
for server in $servers; do
    case $server in
        slate) packages+=(TodoServer) ;;
        fluent) packages+=(TodoServerFluent) ;;
        *) echo "todo-load: unknown server $server (slate, fluent)"; exit 1 ;;
    esac
done
for package in "${packages[@]}"; do
    swift build -c release --package-path "Examples/$package" 2>&1 | tail -n 1
    declare "binary_$package=$(swift build -c release --package-path "Examples/$package" --show-bin-path)/$package"
done

work=$(mktemp -d /tmp/slate-todo-load.XXXXXX)
chmod 755 "$work"
pid=""
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
pg_data=""
as_postgres() { if [ "$(id -u)" -eq 0 ]; then /usr/sbin/runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    [ -n "$pg_data" ] && as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

start_pg() {
    mkdir -p "$work/pg"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$work/pg"
    pg_data="$work/pg/data"
    as_postgres "$pg_bin/initdb" -D "$pg_data" -A trust -U postgres --no-sync -E UTF8 --locale=C >/dev/null
    as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -l "$work/pg/server.log" -w \
        -o "-k $work/pg -c listen_addresses='' -c fsync=off -c max_connections=100" start >/dev/null
}

fresh_pg_database() {
    as_postgres "$pg_bin/psql" -h "$work/pg" -U postgres -qc "DROP DATABASE IF EXISTS todo" postgres >/dev/null
    as_postgres "$pg_bin/psql" -h "$work/pg" -U postgres -qc "CREATE DATABASE todo" postgres >/dev/null
}

# run NAME BINARY ENGINE: one wrk run and one callgrind count; prints a table row.
run() {
    local name=$1 binary=$2 engine=$3
    local env=(HOST=127.0.0.1 PORT=0 LOG_LEVEL=warning DATA_DIR="$work/data-$name-$engine")
    if [ "$engine" = postgresql ]; then
        fresh_pg_database
        env+=(DATABASE_URL=postgres: PGHOST="$work/pg" PGUSER=postgres PGDATABASE=todo)
    fi
    env "${env[@]}" "$binary" >"$work/$name-$engine.log" 2>&1 &
    pid=$!
    until grep -q "listening on" "$work/$name-$engine.log"; do
        kill -0 "$pid" 2>/dev/null || { cat "$work/$name-$engine.log"; exit 1; }
        sleep 0.1
    done
    local port
    port=$(grep -o "listening on [^ ]*" "$work/$name-$engine.log" | head -n 1 | sed -E 's/.*:([0-9]+)\)?$/\1/')
    local base="http://127.0.0.1:$port"
    python3 Benchmarks/todo-load-client.py seed "$base"
    wrk -t2 -c"$connections" -d5s -s Benchmarks/todo-wrk.lua "$base" >/dev/null   # warm-up
    wrk -t2 -c"$connections" -d"${duration}s" --latency -s Benchmarks/todo-wrk.lua "$base" >"$work/wrk.txt"
    cp "$work/wrk.txt" "/tmp/todo-load-$name-$engine.txt"   # wrk's whole report (all percentiles)
    kill -TERM "$pid"
    wait "$pid" || true
    pid=""
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
    errors=$(awk '/Non-2xx/ {n += $NF} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}' "$work/wrk.txt")

    if [ "$counted" -eq 0 ]; then
        printf '| %s | %s | %s | %s | %s | %s | - |\n' "$engine" "$name" "$rps" "$p50" "$p99" "$errors"
        return
    fi

    # Instructions per request: the same mix, COUNTED requests one at a time, under callgrind
    # (every thread of the server process; collection starts after a warm-up).
    if [ "$engine" = postgresql ]; then fresh_pg_database; fi
    rm -rf "$work/data-$name-$engine"
    env "${env[@]}" valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$work/cg.out" \
        "$binary" >"$work/$name-$engine-cg.log" 2>&1 &
    pid=$!
    until grep -q "listening on" "$work/$name-$engine-cg.log"; do
        kill -0 "$pid" 2>/dev/null || { cat "$work/$name-$engine-cg.log"; exit 1; }
        sleep 0.2
    done
    port=$(grep -o "listening on [^ ]*" "$work/$name-$engine-cg.log" | head -n 1 | sed -E 's/.*:([0-9]+)\)?$/\1/')
    base="http://127.0.0.1:$port"
    python3 Benchmarks/todo-load-client.py seed "$base"
    python3 Benchmarks/todo-load-client.py run "$base" 50
    callgrind_control --instr=on "$pid" >/dev/null
    callgrind_control --zero "$pid" >/dev/null
    python3 Benchmarks/todo-load-client.py run "$base" "$counted"
    callgrind_control --dump "$pid" >/dev/null
    kill -TERM "$pid"
    wait "$pid" || true
    pid=""
    local total
    total=$(cat "$work"/cg.out* 2>/dev/null | awk '/^summary:/ {n += $2} END {print n + 0}')
    rm -f "$work"/cg.out*
    local per_request
    per_request=$(awk -v t="$total" -v c="$counted" 'BEGIN {printf "%.2f", t / c / 1e6}')
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$engine" "$name" "$rps" "$p50" "$p99" "$errors" "$per_request"
}

echo "wrk -t2 -c$connections -d${duration}s, mix of Benchmarks/todo-wrk.lua; instructions: $counted requests under callgrind"
echo "| engine | server | requests/s | p50 | p99 | errors | M instructions/request |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
run_servers() {
    local engine=$1
    for server in $servers; do
        case $server in
            slate) run slate "$binary_TodoServer" "$engine" ;;
            fluent) run fluent "$binary_TodoServerFluent" "$engine" ;;
        esac
    done
}
for engine in $engines; do
    case $engine in
        sqlite) run_servers sqlite ;;
        postgresql)
            if [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ]; then
                start_pg
                run_servers postgresql
            else
                echo "(no PostgreSQL server binaries: the PostgreSQL runs are skipped)"
            fi
            ;;
        *) echo "todo-load: unknown engine $engine (sqlite, postgresql)"; exit 1 ;;
    esac
done
