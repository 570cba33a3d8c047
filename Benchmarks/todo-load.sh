#!/usr/bin/env bash
# "Slate in a server" (issue 32): a bounded wrk load run on loopback against Examples/TodoServer
# (Slate) and Examples/TodoServerFluent (the same API with Fluent), on SQLite and on a throwaway
# PostgreSQL server, release builds. Prints requests/s, p50 and p99 latency and errors per run,
# and the server process's CPU time per request over the run (user + system time of every
# thread, from /proc; the PostgreSQL server's own work is not counted).
#
# Not instructions: this machine's VM exposes no hardware counters (`perf stat -e instructions`
# says "not supported"), and Valgrind 3.19 stops with an internal SIGSEGV on any Swift program
# with an async `main` (the servers, and a five-line `Task.sleep` program alike), so callgrind
# cannot count a server's requests here.
#
#     bash Benchmarks/todo-load.sh                 # about 5 minutes after the builds
#     DURATION=10 CONNECTIONS=16 bash Benchmarks/todo-load.sh
#     SERVERS=slate ENGINES=sqlite bash Benchmarks/todo-load.sh   # only Slate's server, only SQLite
#
# Not in CI: building Fluent and its drivers in release takes many minutes on 2 cores.
# Needs wrk (apt-get install wrk) and Debian's postgresql.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-20}
connections=${CONNECTIONS:-16}
servers=${SERVERS:-slate fluent}
configuration=${CONFIGURATION:-release}   # debug: a quick try of the script itself, not figures
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
    swift build -c "$configuration" --package-path "Examples/$package" 2>&1 | tail -n 1
    declare "binary_$package=$(swift build -c "$configuration" --package-path "Examples/$package" --show-bin-path)/$package"
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
    as_postgres "$pg_bin/psql" -h "$work/pg" -U postgres -q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS todo" postgres >/dev/null
    as_postgres "$pg_bin/psql" -h "$work/pg" -U postgres -qc "CREATE DATABASE todo" postgres >/dev/null
}

# The server process's CPU time so far (user + system, every thread), in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# run NAME BINARY ENGINE: one wrk run; prints a table row.
run() {
    local name=$1 binary=$2 engine=$3
    local env=(HOST=127.0.0.1 PORT=0 LOG_LEVEL=warning DATA_DIR="$work/data-$name-$engine")
    if [ "$engine" = postgresql ]; then
        fresh_pg_database
        env+=(DATABASE_URL=postgres: PGHOST="$work/pg" PGUSER=postgres PGDATABASE=todo)
    fi
    env "${env[@]}" "$binary" >"$work/$name-$engine.log" 2>&1 &
    pid=$!
    until grep -qs "listening on" "$work/$name-$engine.log"; do
        kill -0 "$pid" 2>/dev/null || { cat "$work/$name-$engine.log"; exit 1; }
        sleep 0.1
    done
    local port
    port=$(grep -o "listening on [^ ]*" "$work/$name-$engine.log" | sed -n 1p | sed -E 's/.*:([0-9]+)\)?$/\1/')
    local base="http://127.0.0.1:$port"
    python3 Benchmarks/todo-load-client.py seed "$base"
    wrk -t2 -c"$connections" -d5s -s Benchmarks/todo-wrk.lua "$base" >/dev/null   # warm-up
    local cpu_before cpu_after
    cpu_before=$(cpu_ticks "$pid")
    wrk -t2 -c"$connections" -d"${duration}s" --latency -s Benchmarks/todo-wrk.lua "$base" >"$work/wrk.txt"
    cpu_after=$(cpu_ticks "$pid")
    cp "$work/wrk.txt" "/tmp/todo-load-$name-$engine.txt"   # wrk's whole report (all percentiles)
    kill -TERM "$pid"
    local exit_status=0
    wait "$pid" || exit_status=$?
    pid=""
    [ "$exit_status" -eq 0 ] || echo "todo-load: $name ($engine) exited with status $exit_status after SIGTERM" >&2
    local rps p50 p99 errors
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
    errors=$(awk '/Non-2xx/ {n += $NF} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}' "$work/wrk.txt")

    local requests cpu_ticks per_request
    requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
    cpu_ticks=$((cpu_after - cpu_before))
    per_request=$(awk -v t="$cpu_ticks" -v hz="$(getconf CLK_TCK)" -v n="$requests" \
        'BEGIN { if (n > 0) printf "%.0f", t / hz / n * 1e6; else print "-" }')
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$engine" "$name" "$rps" "$p50" "$p99" "$errors" "$per_request"
}

echo "wrk -t2 -c$connections -d${duration}s, mix of Benchmarks/todo-wrk.lua; CPU: the server process's user + system time over the run"
echo "| engine | server | requests/s | p50 | p99 | errors | server CPU µs/request |"
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
