#!/usr/bin/env bash
# The chaos run of issue 10: `allot-bench chaos` (bench/chaos_bench.h) with the
# release build. Many clients submit, cancel, delete, list, get, apply and
# drain against allotd with real pods while allotd is killed with SIGKILL at
# seeded moments and nodes fail; after each restart it checks that no
# acknowledged write is lost or undone, no workload is admitted twice, no GPU
# is double-booked, quotas reconcile with the running set and no pod of a
# stopped workload is alive. Exits non-zero on any violation.
#
#   scripts/chaos.sh [--store sqlite|postgres] [--seconds N] [--clients N] [--rounds N] [--seed S] [-o json] ...
#
# Defaults: SQLite, 200 clients, 60 s of load, 3 rounds (3 kills), seed 1; any
# other flag of `allot-bench chaos --help` is passed on. `--store postgres`
# starts a PostgreSQL server of its own (scripts/postgres.sh, in a temporary
# folder, stopped at the end) and runs two allotd on it, a leader and a
# standby: each kill is the leader's, and the standby must take over. Builds build/release's
# allotd and allot-bench first if needed (JOBS, default 2, compile jobs). Run
# it as root: pods then run under their teams' Unix accounts and the pod
# check sees every pod. The CI-sized run is the ctest `chaos_ci` (tests/bench).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -f build/release/CMakeCache.txt ]]; then
  echo "== configure (release)" >&2
  cmake --preset release >&2
fi
echo "== build allotd and allot-bench (release)" >&2
cmake --build build/release --target allotd allot-bench -j"${JOBS:-2}" >&2

store=sqlite
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --store) store="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
case "${store}" in
  sqlite) exec ./build/release/bench/allot-bench chaos "${args[@]}" ;;
  postgres)
    pg_dir="$(mktemp -d /tmp/allot-chaos-pg.XXXXXX)"
    trap 'scripts/postgres.sh stop "${pg_dir}"; rm -rf "${pg_dir}"' EXIT
    conninfo="$(scripts/postgres.sh start "${pg_dir}")"
    ./build/release/bench/allot-bench chaos --postgres "${conninfo}" "${args[@]}"
    ;;
  *) echo "chaos.sh: --store wants sqlite or postgres, got '${store}'" >&2; exit 2 ;;
esac
