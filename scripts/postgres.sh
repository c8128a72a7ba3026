#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests and trying the app on PostgreSQL by hand.
#   scripts/postgres.sh start [PORT]   starts one (default port 55431) and prints its DATABASE_URL
#   scripts/postgres.sh stop [PORT]    stops it and deletes its folder
#   scripts/postgres.sh url [PORT]     prints the URL
# Installs Debian's postgresql package when missing. Trust authentication, listening on 127.0.0.1
# only, data in a temporary folder: nothing here is for production.
set -euo pipefail

command=${1:-}
port=${2:-${PGPORT_TEST:-55431}}
dir="${TMPDIR:-/tmp}/trusted-sitters-postgres-$port"
bin=/usr/lib/postgresql/15/bin
url="postgres://postgres@127.0.0.1:$port/postgres"

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
  start)
    if [ ! -x "$bin/initdb" ]; then
      echo "Installing PostgreSQL 15 (Debian's postgresql package)…" >&2
      sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
      $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
    fi
    if [ -f "$dir/postmaster.pid" ]; then
      as_postgres "$bin/pg_ctl" -D "$dir" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
    # C collation: text sorts and compares by bytes, as on SQLite and in JavaScript.
    as_postgres "$bin/initdb" -D "$dir" -A trust -U postgres -E UTF8 --locale=C >/dev/null
    # No durability needed for a cluster that lives a test run: fsync and full-page writes off.
    as_postgres "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200" \
      -w start >/dev/null
    echo "$url"
    ;;
  stop)
    if [ -f "$dir/postmaster.pid" ]; then as_postgres "$bin/pg_ctl" -D "$dir" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  url)
    echo "$url"
    ;;
  *)
    echo "usage: scripts/postgres.sh start|stop|url [PORT]" >&2
    exit 2
    ;;
esac
