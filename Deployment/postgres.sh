#!/usr/bin/env bash
# A throwaway PostgreSQL cluster in a folder, on a Unix socket only (no TCP port), for tests and `make cluster`.
#
#   Deployment/postgres.sh start DIR     creates the cluster on first use, starts it, prints its URL
#   Deployment/postgres.sh stop DIR      stops it (pg_ctl, by the postmaster's pid file)
#   Deployment/postgres.sh restart DIR   stops and starts it again (the same data)
#   Deployment/postgres.sh url DIR       prints its URL
#
# As root the server runs as the `postgres` user (PostgreSQL refuses to run as root). The `postgres` role's
# password is in DIR/password; local connections must give it (scram-sha-256).
set -euo pipefail
command=${1:?usage: postgres.sh start|stop|restart|url DIR}
dir=${2:?usage: postgres.sh start|stop|restart|url DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: PostgreSQL is not installed (Debian package postgresql)" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

url() {
    echo "postgresql://postgres:$(cat "$dir/password")@/postgres?host=$dir"
}

start() {
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        [ "$(id -u)" = 0 ] && chown postgres "$dir"
        chmod 755 "$dir"
        head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$dir/password"
        chmod 644 "$dir/password"
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=scram-sha-256 --pwfile="$dir/password" \
            --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    # Tests and the demo cluster trade durability for speed: the data is thrown away.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-k $dir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c max_connections=200" \
        start >/dev/null || { tail -n 20 "$dir/server.log" >&2; exit 1; }
    url
}

stop() {
    [ -f "$dir/data/postmaster.pid" ] || return 0
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null
}

case "$command" in
    start) start ;;
    stop) stop ;;
    restart) stop; start ;;
    url) url ;;
    *) echo "usage: postgres.sh start|stop|restart|url DIR" >&2; exit 2 ;;
esac
