#!/usr/bin/env bash
# Starts and stops the tests' real OpenID provider (server.mjs: node-oidc-
# provider, the version pinned in package.json and package-lock.json) in DIR.
#
#   scripts/oidc-provider/oidc-provider.sh start DIR   # prints the issuer URL
#   scripts/oidc-provider/oidc-provider.sh stop DIR
#
# start copies package.json, package-lock.json and server.mjs into DIR, runs
# `npm ci` there when the lock file changed (the npm registry, or npm's cache),
# starts `node server.mjs DIR` in the background (pid in DIR/pid, log in
# DIR/server.log) and waits until it has written DIR/issuer: it listens on
# 127.0.0.1 on a free port, so that concurrent runs never collide.
# Needs Node.js 18+ and npm (scripts/install-deps.sh).
set -euo pipefail

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action="$1"
dir="$(realpath -m "$2")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

stop() {
  if [[ -f "${dir}/pid" ]]; then
    local pid
    pid="$(cat "${dir}/pid")"
    if kill -0 "${pid}" 2>/dev/null; then
      kill "${pid}"
      for _ in $(seq 50); do
        kill -0 "${pid}" 2>/dev/null || break
        sleep 0.1
      done
    fi
    rm -f "${dir}/pid"
  fi
  rm -f "${dir}/issuer"
}

start() {
  command -v node >/dev/null && command -v npm >/dev/null ||
    { echo "oidc-provider.sh: node and npm are needed" >&2; exit 1; }
  stop
  mkdir -p "${dir}"
  cp "${here}/server.mjs" "${here}/package.json" "${dir}/"
  if ! cmp -s "${here}/package-lock.json" "${dir}/package-lock.json" || [[ ! -d "${dir}/node_modules" ]]; then
    cp "${here}/package-lock.json" "${dir}/"
    (cd "${dir}" && npm ci --no-audit --no-fund --prefer-offline >"${dir}/npm.log" 2>&1) ||
      { cat "${dir}/npm.log" >&2; exit 1; }
  fi
  (cd "${dir}" && exec node server.mjs "${dir}" >"${dir}/server.log" 2>&1) &
  echo $! >"${dir}/pid"
  for _ in $(seq 100); do
    if [[ -f "${dir}/issuer" ]]; then
      cat "${dir}/issuer"
      return
    fi
    kill -0 "$(cat "${dir}/pid")" 2>/dev/null || break
    sleep 0.1
  done
  echo "oidc-provider.sh: the provider did not start" >&2
  cat "${dir}/server.log" >&2
  stop
  exit 1
}

case "${action}" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
