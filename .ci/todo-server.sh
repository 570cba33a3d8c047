#!/usr/bin/env bash
# Builds Examples/TodoServer (Hummingbird 2 + Slate, issue 32) and drives it over real HTTP on
# loopback, once on SQLite and once on a throwaway PostgreSQL server:
#   - every endpoint, the bad inputs (malformed JSON, unknown ids, an oversized body, constraint
#     violations: 4xx with a JSON error, never a 500), one SSE client that must see a change made
#     by another request, and (SQLite) request logs and traces correlated with the database's spans
#     (.ci/todo-server-driver.py);
#   - a graceful shutdown under load (SIGTERM while 8 clients write) that loses no acknowledged
#     write: the server exits 0, and after a restart every write it answered 201 is there;
#   - a database that cannot be opened fails the start with a clear message (exit status 1);
#   - sync (issue 35): replicas in `slate-fuzz converge` push and pull through the server's /sync
#     routes over HTTP, with a lossy network and syncs killed with SIGKILL, and must converge.
# About 5 minutes on 2 cores cold, most of it building Hummingbird and SwiftNIO.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

swift build --package-path Examples/TodoServer 2>&1 | tee /tmp/slate-todo-build.log | tail -n 2
server=$(swift build --package-path Examples/TodoServer --show-bin-path)/TodoServer
[ -x "$server" ] || { echo "no TodoServer binary at $server"; exit 1; }
# The convergence harness of issue 35, from Slate's own package (built by `swift build --build-tests`).
swift build --product slate-fuzz 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' | tail -n 2
fuzz=$(swift build --show-bin-path)/slate-fuzz
[ -x "$fuzz" ] || { echo "no slate-fuzz binary at $fuzz"; exit 1; }

work=$(mktemp -d /tmp/slate-todo.XXXXXX)
chmod 755 "$work"
server_pid=""
pg_bin=""
pg_data=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -9 "$server_pid" 2>/dev/null || true; fi
    if [ -n "$pg_data" ]; then as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then /usr/sbin/runuser -u postgres -- "$@"; else "$@"; fi
}

# Starts the server with the environment given as arguments (VAR=value …) on a free port; sets
# server_pid and base. The server prints its address once it listens.
start_server() {
    local log=$1
    shift
    env "$@" HOST=127.0.0.1 PORT=0 "$server" >"$log" 2>&1 &
    server_pid=$!
    local deadline=$((SECONDS + 60))
    until grep -q "TodoServer listening on" "$log"; do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "the server exited at start:"; cat "$log"; exit 1
        fi
        [ "$SECONDS" -lt "$deadline" ] || { echo "the server did not start:"; cat "$log"; exit 1; }
        sleep 0.1
    done
    local port
    port=$(grep -o "TodoServer listening on [^ ]*" "$log" | sed -n 1p | sed -E 's/.*:([0-9]+)\)?$/\1/')
    base="http://127.0.0.1:$port"
}

# Waits for the server to exit after SIGTERM; it must exit 0 (a graceful shutdown) in time.
wait_for_exit() {
    local log=$1 status=0
    local deadline=$((SECONDS + 60))
    while kill -0 "$server_pid" 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || { echo "the server did not shut down within 60 s:"; tail -n 30 "$log"; exit 1; }
        sleep 0.1
    done
    wait "$server_pid" || status=$?
    server_pid=""
    if [ "$status" -ne 0 ]; then echo "the server exited with status $status after SIGTERM:"; tail -n 30 "$log"; exit 1; fi
}

# The same checks on one engine; $@ is the environment that selects it.
run_engine() {
    local engine=$1
    shift
    echo "== TodoServer on $engine: the API"
    start_server "$work/$engine-api.log" LOG_LEVEL=debug TRACE=1 "$@"
    python3 .ci/todo-server-driver.py api "$base" "$engine" "$work/$engine-api.log"
    kill -TERM "$server_pid"
    wait_for_exit "$work/$engine-api.log"

    echo "== TodoServer on $engine: graceful shutdown under load"
    start_server "$work/$engine-load.log" LOG_LEVEL=info "$@"
    python3 .ci/todo-server-driver.py load "$base" "$server_pid" "$work/$engine-acked.json"
    wait_for_exit "$work/$engine-load.log"
    start_server "$work/$engine-verify.log" LOG_LEVEL=info "$@"
    python3 .ci/todo-server-driver.py verify "$base" "$work/$engine-acked.json"
    kill -TERM "$server_pid"
    wait_for_exit "$work/$engine-verify.log"
}

# Expects the server to refuse to start, with exit status 1 and `message` in its output.
expect_start_failure() {
    local message=$1
    shift
    local status=0
    # Each case fails within seconds: the PostgreSQL one through PostgreSQLDatabase.checkConnection
    # at boot (without it, postgres-nio's pool retries for 60 s before giving up).
    env "$@" HOST=127.0.0.1 PORT=0 timeout 60 "$server" >"$work/failure.log" 2>&1 || status=$?
    if [ "$status" -ne 1 ] || ! grep -q "$message" "$work/failure.log"; then
        echo "expected the server to fail at start (status 1) saying '$message'; status $status:"
        cat "$work/failure.log"
        exit 1
    fi
    echo "fails at start as it should: $(grep -m 1 "$message" "$work/failure.log")"
}

# SQLite: a data directory of its own.
run_engine sqlite DATA_DIR="$work/data"

# Sync through a real server: 3 replicas write offline and sync through /sync (a log beside the
# to-do tables), over a network that drops and repeats messages, some syncs SIGKILLed in a child;
# afterwards every replica's dump is the same and every acknowledged write is there or reported.
echo "== TodoServer: sync convergence through /sync over HTTP"
start_server "$work/sync.log" LOG_LEVEL=warning DATA_DIR="$work/sync-data"
"$fuzz" converge --url "$base/sync" --replicas 3 --writes 400 --kills 6 --seed 35
malformed_status=$(python3 -c "import sys,urllib.request,urllib.error
try: urllib.request.urlopen(urllib.request.Request('$base/sync/push', data=b'{', method='POST'))
except urllib.error.HTTPError as e: print(e.code)")
[ "$malformed_status" = "400" ] || { echo "a malformed push answered $malformed_status, not 400"; exit 1; }
kill -TERM "$server_pid"
wait_for_exit "$work/sync.log"
echo "== TodoServer: a database that cannot be opened"
touch "$work/not-a-directory"
expect_start_failure "cannot create the data directory" DATA_DIR="$work/not-a-directory/data"
mkdir -p "$work/garbage" && head -c 8192 /dev/urandom >"$work/garbage/todo.sqlite"
expect_start_failure "cannot open the SQLite database at $work/garbage/todo.sqlite" DATA_DIR="$work/garbage"
expect_start_failure "cannot use the PostgreSQL database.*cannot connect to PostgreSQL at 127.0.0.1:1" \
    DATABASE_URL="postgres://nobody@127.0.0.1:1/none" DATA_DIR="$work/unreachable-data"
expect_start_failure "cannot use the PostgreSQL database.*Unix socket $work/no-such-dir/.s.PGSQL.5432" \
    DATABASE_URL=postgres: PGHOST="$work/no-such-dir" PGUSER=postgres DATA_DIR="$work/unreachable-data"

# PostgreSQL: a throwaway server on a Unix socket (as .ci/postgres-example.sh starts one).
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
    echo "no PostgreSQL server binaries (initdb): install Debian's postgresql"
    exit 1
fi
mkdir -p "$work/pg"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$work/pg"
pg_data="$work/pg/data"
as_postgres "$pg_bin/initdb" -D "$pg_data" -A trust -U postgres --no-sync -E UTF8 --locale=C >"$work/initdb.log" 2>&1 \
    || { cat "$work/initdb.log"; exit 1; }
as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -l "$work/pg/server.log" -w \
    -o "-k $work/pg -c listen_addresses='' -c fsync=off" start >/dev/null \
    || { cat "$work/pg/server.log"; exit 1; }
# DATA_DIR: where the sync log (sync.sqlite) goes when the app runs on PostgreSQL.
run_engine postgresql DATABASE_URL=postgres: PGHOST="$work/pg" PGUSER=postgres PGDATABASE=postgres DATA_DIR="$work/pg-data"

echo "TodoServer: every check passed on SQLite and PostgreSQL"
