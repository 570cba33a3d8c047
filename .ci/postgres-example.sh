#!/usr/bin/env bash
# Runs Examples/PostgresPlayers (README, "Outgrowing one machine") against a PostgreSQL server of its
# own: a temporary data directory (initdb, trust authentication, a Unix socket only, no TCP port),
# started with pg_ctl and stopped afterwards. PostgreSQL refuses to run as root: as root the server
# runs as the `postgres` user (Debian's package creates it). Checks that the example's typed queries
# give the same results on SQLite and on PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    bin=$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")
fi
if [ ! -x "$bin/initdb" ]; then
    echo "no PostgreSQL server binaries (initdb): install Debian's postgresql"
    exit 1
fi

as_server_user() {
    if [ "$(id -u)" -eq 0 ]; then /usr/sbin/runuser -u postgres -- "$@"; else "$@"; fi
}

directory=$(mktemp -d /tmp/slate-pg-example.XXXXXX)
chmod 755 "$directory"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$directory"
stop_server() {
    as_server_user "$bin/pg_ctl" -D "$directory/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$directory"
}
trap stop_server EXIT

as_server_user "$bin/initdb" -D "$directory/data" -A trust -U postgres --no-sync -E UTF8 --locale=C >"$directory/initdb.log" 2>&1 \
    || { cat "$directory/initdb.log"; exit 1; }
as_server_user "$bin/pg_ctl" -D "$directory/data" -l "$directory/server.log" -w \
    -o "-k $directory -c listen_addresses='' -c fsync=off" start >/dev/null \
    || { cat "$directory/server.log"; exit 1; }

swift build --package-path Examples/PostgresPlayers 2>&1 | tee /tmp/slate-pg-example-build.log | tail -n 2
PGHOST=$directory PGUSER=postgres PGDATABASE=postgres \
    swift run --skip-build --package-path Examples/PostgresPlayers | tee /tmp/slate-pg-example.log

# The example prints each engine's results under "SQLite:" and "PostgreSQL:"; they must be equal.
sqlite=$(sed -n '/^SQLite:$/,/^PostgreSQL:$/p' /tmp/slate-pg-example.log | sed '1d;$d')
postgres=$(sed -n '/^PostgreSQL:$/,$p' /tmp/slate-pg-example.log | sed '1d' | grep -v "rolled back")
if [ -z "$sqlite" ] || [ "$sqlite" != "$postgres" ]; then
    echo "the example's results differ between SQLite and PostgreSQL (or are missing)"
    exit 1
fi
grep -q "rolled back: the server's database is unchanged" /tmp/slate-pg-example.log
echo "PostgresPlayers: the same results on SQLite and PostgreSQL"
