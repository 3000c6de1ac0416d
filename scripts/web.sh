#!/usr/bin/env bash
# Builds allot's web dashboard (web/) into OUT, the folder allotd serves at
# /ui (the build puts it beside the allotd binary: src/app/CMakeLists.txt).
#
#   scripts/web.sh build OUT
#   scripts/web.sh report OUT   # the report of `allot simulate --report`:
#                               # OUT/report.{js,css,csp} (web/build.mjs)
#
# Runs `npm ci` in web/ from the committed package-lock.json when
# node_modules is missing or older than the lock file (the npm registry, or
# npm's cache), then web/build.mjs (esbuild). Needs Node.js 18+ and npm
# (scripts/install-deps.sh).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
web="${here}/web"

usage() {
  echo "usage: $0 build|report OUT" >&2
  exit 2
}
[[ $# -eq 2 && ( "$1" == build || "$1" == report ) ]] || usage
out="$(realpath -m "$2")"

command -v node >/dev/null && command -v npm >/dev/null ||
  { echo "web.sh: node and npm are needed (scripts/install-deps.sh)" >&2; exit 1; }

# npm ci writes node_modules/.package-lock.json; a lock file newer than it
# means the dependencies changed.
stamp="${web}/node_modules/.package-lock.json"
if [[ ! -f "${stamp}" || "${web}/package-lock.json" -nt "${stamp}" ]]; then
  log="$(mktemp)"
  (cd "${web}" && npm ci --no-audit --no-fund --prefer-offline >"${log}" 2>&1) ||
    { cat "${log}" >&2; rm -f "${log}"; exit 1; }
  rm -f "${log}"
fi
mkdir -p "${out}"
if [[ "$1" == report ]]; then
  cd "${web}" && node build.mjs --report "${out}"
else
  cd "${web}" && node build.mjs "${out}"
fi
