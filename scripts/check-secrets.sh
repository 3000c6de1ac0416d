#!/usr/bin/env bash
# Searches every log of a test run for the secrets the tests plant: values
# that start with `allot-canary-secret` (workload environment values, a
# PostgreSQL password in allotd's --store, ...), and for anything shaped like
# allot's API and session tokens. allotd must never write them to a log. Exits non-zero, naming the files, when one is found.
#
#   scripts/check-secrets.sh PATH...   # folders are searched recursively
#
# scripts/test.sh passes the allotd logs the tests kept (ALLOT_TEST_LOG_DIR,
# see tests/server/allotd_process.h), ctest's logs of each preset and the
# test PostgreSQL servers' logs.
set -euo pipefail

if [[ $# -eq 0 ]]; then
  echo "usage: $0 PATH..." >&2
  exit 2
fi
existing=()
for path in "$@"; do
  [[ -e "${path}" ]] && existing+=("${path}")
done
if [[ ${#existing[@]} -eq 0 ]]; then
  echo "check-secrets: none of $* exists: nothing was logged to search" >&2
  exit 1
fi
files="$(find "${existing[@]}" -type f | wc -l)"
if found="$(grep -rlaF 'allot-canary-secret' "${existing[@]}")"; then
  echo "check-secrets: a planted secret was logged in:" >&2
  echo "${found}" >&2
  exit 1
fi
# allotd's own credentials have a shape: an API token (allot_ + 43 base64url
# characters) or a session token (allots_...). None may appear in a log.
if found="$(grep -rlaE 'allots?_[A-Za-z0-9_-]{43}' "${existing[@]}")"; then
  echo "check-secrets: an allot API or session token was logged in:" >&2
  echo "${found}" >&2
  exit 1
fi
echo "check-secrets: no planted secret in ${files} log files"
