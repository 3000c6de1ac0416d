#!/usr/bin/env bash
# The chaos run of issue 10: `allot-bench chaos` (bench/chaos_bench.h) with the
# release build. Many clients submit, cancel, delete, list, get, apply and
# drain against allotd with real pods while allotd is killed with SIGKILL at
# seeded moments and nodes fail; after each restart it checks that no
# acknowledged write is lost or undone, no workload is admitted twice, no GPU
# is double-booked, quotas reconcile with the running set and no pod of a
# stopped workload is alive. Exits non-zero on any violation.
#
#   scripts/chaos.sh [--seconds N] [--clients N] [--rounds N] [--seed S] [-o json] ...
#
# Defaults: 200 clients, 60 s of load, 3 rounds (3 kills), seed 1; any other
# flag of `allot-bench chaos --help` is passed on. Builds build/release's
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

exec ./build/release/bench/allot-bench chaos "$@"
