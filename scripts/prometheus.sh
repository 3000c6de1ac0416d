#!/usr/bin/env bash
# Starts and stops a throw-away Prometheus for the tests: Debian's
# `prometheus` (installed by scripts/install-deps.sh) on 127.0.0.1 at a free
# port, its TSDB in DIR, scraping every second the targets a test writes to
# DIR/targets.json (file service discovery: Prometheus picks a change up at
# once) with the bearer token the test writes to DIR/token, at /metrics.
#
#   scripts/prometheus.sh start DIR   # prints the URL; also in DIR/url
#   scripts/prometheus.sh stop DIR    # SIGTERM, waits for the exit; DIR stays
#
# The tests' ctest fixture `prometheus` (tests/CMakeLists.txt) runs both.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action="$1"
dir="$(realpath -m "$2")"

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  if ! command -v prometheus >/dev/null; then
    echo "prometheus.sh: no prometheus; run scripts/install-deps.sh" >&2
    exit 1
  fi
  stop
  rm -rf "${dir}"
  mkdir -p "${dir}/data"
  echo '[]' >"${dir}/targets.json"
  : >"${dir}/token"
  cat >"${dir}/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: allotd
    metrics_path: /metrics
    authorization:
      credentials_file: ${dir}/token
    file_sd_configs:
      - files: [${dir}/targets.json]
YAML
  local port
  port="$(free_port)"
  # setsid: its own session, holding none of the caller's descriptors (the
  # build lock's among them).
  setsid prometheus --config.file="${dir}/prometheus.yml" --storage.tsdb.path="${dir}/data" \
    --web.listen-address="127.0.0.1:${port}" --storage.tsdb.retention.time=1h \
    </dev/null >"${dir}/log" 2>&1 9>&- &
  echo $! >"${dir}/pid"
  local url="http://127.0.0.1:${port}"
  for _ in $(seq 1 200); do
    if curl -fsS "${url}/-/ready" >/dev/null 2>&1; then
      echo "${url}" >"${dir}/url"
      echo "${url}"
      return
    fi
    if ! kill -0 "$(cat "${dir}/pid")" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "prometheus.sh: Prometheus did not become ready; its log:" >&2
  cat "${dir}/log" >&2 || true
  stop
  exit 1
}

stop() {
  [[ -f "${dir}/pid" ]] || return 0
  local pid
  pid="$(cat "${dir}/pid")"
  if kill "${pid}" 2>/dev/null; then
    for _ in $(seq 1 100); do
      kill -0 "${pid}" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "${pid}" 2>/dev/null || true
  fi
  rm -f "${dir}/pid"
}

case "${action}" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
