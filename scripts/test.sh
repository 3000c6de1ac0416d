#!/usr/bin/env bash
# The test command: installs dependencies, makes the release build of allot
# and allotd and runs the long simulations there (label slow), builds the
# asan-ubsan preset (every target: allot, allotd, the benchmarks, the web UI,
# every test) and runs every other test under AddressSanitizer and UBSan
# (ctest), builds the tsan preset (Clang, -Wthread-safety,
# ThreadSanitizer) and runs the governance, service, server and crash tests
# under it (the audit log's threads among them), runs
# each fuzz target for 6 s (the fuzz preset: libFuzzer under ASan and UBSan),
# searches every log of the run for the secrets the tests plant
# (scripts/check-secrets.sh) and the format check. The debug preset (the same
# tests without sanitizers) is for development: the sanitizer build finds
# everything it finds, and CI's two cores cannot afford both builds.
# The release build that the run command makes comes first, before any test
# has run: nothing a test leaves behind can reach it.
# A build that fails prints the machine's state (memory, disk, the kernel's
# last words, the largest processes): a compiler killed from outside prints
# nothing of its own. The PostgreSQL tests start a server of their own (ctest
# fixture `postgres`, scripts/postgres.sh). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

# cmake --build with the given arguments; on failure, what the machine looked like.
build() {
  local status=0
  cmake --build "$@" || status=$?
  if [[ ${status} -ne 0 ]]; then
    {
      echo "test.sh: cmake --build $* failed (exit ${status}); the machine now:"
      free -m || true
      df -h . /tmp || true
      dmesg 2>/dev/null | tail -n 20 || true
      ps -eo pid,rss,etime,args --sort=-rss | head -n 12 | cut -c1-200 || true
    } >&2
    return "${status}"
  fi
}

# A stage's heading, with the seconds since the script began (CI's time by stage).
stage() {
  echo "== [${SECONDS} s] $*"
}

stage "release: allot and allotd with the release preset (the run command's build;"
echo "   GCC at -O2 warns where -O0 does not, and warnings are errors)"
cmake --preset release
build build/release --target allot allotd -j"$(nproc)"

stage "release: the long simulations (ctest label slow: the Kueue baseline, the trace replays) at -O2"
build build/release --target service_slow_test -j"$(nproc)"
build/release/tests/service/service_slow_test

# Every allotd the tests run leaves its log here (tests/server/allotd_process.h).
export ALLOT_TEST_LOG_DIR="${PWD}/build/test-logs"
rm -rf "${ALLOT_TEST_LOG_DIR}"
mkdir -p "${ALLOT_TEST_LOG_DIR}"

stage "asan-ubsan: every target, then every test under AddressSanitizer and UndefinedBehaviorSanitizer"
cmake --preset asan-ubsan
build --preset asan-ubsan -j"$(nproc)"
ctest --preset asan-ubsan -j2

stage "tsan: Clang's lock-discipline analysis, then the governance, service, server and crash tests"
echo "   under ThreadSanitizer (a race in the tests or in the allotd they run fails them)"
cmake --preset tsan
build build/tsan -j"$(nproc)"
ctest --preset tsan -j2

stage "fuzz: each target of tests/fuzz for 6 s (libFuzzer under ASan and UBSan)"
scripts/fuzz.sh 6

stage "secrets: no planted secret in any log of this run"
# (the tests' PostgreSQL servers live in /tmp/allot-postgres-*: tests/CMakeLists.txt)
scripts/check-secrets.sh "${ALLOT_TEST_LOG_DIR}" build/asan-ubsan/Testing/Temporary \
  build/tsan/Testing/Temporary /tmp/allot-postgres-*/server.log

stage "format"
scripts/check-format.sh

echo "test: all checks passed in ${SECONDS} s"
