#!/usr/bin/env bash
# Starts and stops a throw-away PostgreSQL server for the tests, the chaos
# script and the failover bench: Debian's postgresql (installed by
# scripts/install-deps.sh), its own data folder, listening only on a Unix
# socket in DIR (no TCP port, so that runs never collide), trust
# authentication for the superuser `postgres` on that socket.
#
#   scripts/postgres.sh start DIR   # initdb when DIR is new; prints the conninfo
#   scripts/postgres.sh stop DIR    # fast shutdown; DIR stays
#   scripts/postgres.sh conninfo DIR
#
# As root, the server runs as the `postgres` account (PostgreSQL refuses
# root). The conninfo is also written to DIR/conninfo.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|conninfo DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action="$1"
dir="$(realpath -m "$2")"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [[ -z "${bin}" ]]; then
  echo "postgres.sh: no PostgreSQL server under /usr/lib/postgresql; run scripts/install-deps.sh" >&2
  exit 1
fi
# A socket path must fit in 107 bytes (the tests keep DIR short, under /tmp).
port=5432
conninfo="host=${dir}/socket port=${port} user=postgres dbname=postgres"

as_server() {
  if [[ "$(id -u)" -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start() {
  mkdir -p "${dir}/socket"
  if [[ "$(id -u)" -eq 0 ]]; then
    chown postgres: "${dir}" "${dir}/socket"
  fi
  if [[ -f "${dir}/data/PG_VERSION" ]] && as_server "${bin}/pg_ctl" -D "${dir}/data" status >/dev/null 2>&1; then
    echo "${conninfo}" >"${dir}/conninfo"
    echo "${conninfo}"
    return
  fi
  if [[ ! -f "${dir}/data/PG_VERSION" ]]; then
    as_server "${bin}/initdb" -D "${dir}/data" -U postgres --auth=trust --no-sync \
      --encoding=UTF8 --locale=C.UTF-8 >"${dir}/initdb.log" 2>&1 ||
      { cat "${dir}/initdb.log" >&2; exit 1; }
  fi
  # No TCP (listen_addresses ''); fsync stays on: the store's durability is tested.
  as_server "${bin}/pg_ctl" -D "${dir}/data" -l "${dir}/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='${dir}/socket' -p ${port} \
-c max_connections=200 -c shared_buffers=64MB" start >/dev/null ||
    { cat "${dir}/server.log" >&2; exit 1; }
  echo "${conninfo}" >"${dir}/conninfo"
  echo "${conninfo}"
}

stop() {
  if [[ -f "${dir}/data/postmaster.pid" ]]; then
    as_server "${bin}/pg_ctl" -D "${dir}/data" -m fast -w -t 60 stop >/dev/null
  fi
}

case "${action}" in
  start) start ;;
  stop) stop ;;
  conninfo) echo "${conninfo}" ;;
  *) usage ;;
esac
