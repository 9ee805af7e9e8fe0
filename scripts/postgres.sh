#!/usr/bin/env bash
# A throwaway PostgreSQL for the server's storage tests.
#
#   eval "$(scripts/postgres.sh)"     # start (or reuse) it; exports POLYSHOGI_TEST_POSTGRES_URL
#   scripts/postgres.sh stop          # stop it and delete its files
#
# Installs Debian's `postgresql` package with apt-get if no PostgreSQL is installed (running
# `apt-get update` only when the package cannot be found), runs a private cluster in
# $POLYSHOGI_PG_DIR (default /tmp/polyshogi-postgres) on a free port of 127.0.0.1 as a
# non-root user (`postgres` when run as root), and creates the database `polyshogi_test`.
# Idempotent: a cluster that is already running is reused. Only the `export …` line goes to
# stdout; progress goes to stderr.
set -euo pipefail

# shellcheck source=debian-package.sh
. "$(dirname "${BASH_SOURCE[0]}")/debian-package.sh"

DIR=${POLYSHOGI_PG_DIR:-/tmp/polyshogi-postgres}
DB=polyshogi_test
say() { echo "postgres.sh: $*" >&2; }

find_bin() {
    local newest
    newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$newest" ] && [ -x "$newest/initdb" ]; then
        echo "$newest"
    fi
}

# Runs a command as the cluster's owner: `postgres` when we are root (PostgreSQL refuses to
# run as root), ourselves otherwise.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        if command -v runuser >/dev/null; then
            runuser -u postgres -- "$@"
        else
            su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
        fi
    else
        "$@"
    fi
}

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
    local port
    for port in $(seq 54329 54429); do
        if ! port_in_use "$port"; then
            echo "$port"
            return
        fi
    done
    say "no free port between 54329 and 54429"
    exit 1
}

BIN=$(find_bin)

if [ "${1:-}" = "stop" ]; then
    if [ -n "$BIN" ] && [ -d "$DIR/data" ]; then
        as_owner "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >&2 || true
    fi
    rm -rf "$DIR"
    say "stopped and removed $DIR"
    exit 0
fi

if [ -z "$BIN" ]; then
    install_debian_package postgresql
    BIN=$(find_bin)
    if [ -z "$BIN" ]; then
        say "PostgreSQL is still not installed"
        exit 1
    fi
fi

mkdir -p "$DIR"
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$DIR"
fi

if [ ! -f "$DIR/data/PG_VERSION" ]; then
    say "creating a cluster in $DIR/data ($("$BIN/postgres" --version))"
    as_owner "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --locale=C >"$DIR/initdb.log" 2>&1 \
        || { cat "$DIR/initdb.log" >&2; exit 1; }
fi

if as_owner "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1 && [ -f "$DIR/port" ]; then
    PORT=$(cat "$DIR/port")
    say "reusing the running cluster on port $PORT"
else
    PORT=$(free_port)
    echo "$PORT" > "$DIR/port"
    say "starting the cluster on 127.0.0.1:$PORT"
    as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1" start >&2 \
        || { cat "$DIR/server.log" >&2; exit 1; }
fi

PSQL=("$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA)
if [ "$("${PSQL[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != "1" ]; then
    "${PSQL[@]}" -c "CREATE DATABASE $DB" >&2
    say "created database $DB"
fi

URL="postgres://postgres@127.0.0.1:$PORT/$DB"
say "ready: $URL"
echo "export POLYSHOGI_TEST_POSTGRES_URL=$URL"
