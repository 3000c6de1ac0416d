#!/usr/bin/env bash
# Installs everything allot needs to build, test and run on Debian 12 (bookworm).
#
# Idempotent: when every package is already installed it says so and exits at
# once, without touching apt. Runs apt as root, through sudo when not root.
set -euo pipefail

packages=(
  # toolchain
  build-essential g++ cmake ninja-build ccache pkg-config git
  # tests and benchmarks
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  # libraries
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libsqlite3-dev sqlite3 libssl-dev libcpp-httplib-dev
  # the PostgreSQL store: libpq, and the server the tests start on a socket
  # of their own (scripts/postgres.sh)
  libpq-dev postgresql
  # credentials: Argon2id passwords, HMAC session tokens (src/identity/credentials)
  libsodium-dev
  # allotd's HTTP server: Boost.Beast/Asio (headers) and Boost.URL
  libboost1.81-dev libboost-url1.81-dev
  # allotd's allocator (see src/app/CMakeLists.txt)
  libjemalloc-dev
  # the Slurm executor's libslurm transport (src/backends/slurm/library_transport.h):
  # Slurm's C API, the RPCs sbatch, scancel and squeue make
  libslurm-dev
  # style and static analysis; Clang with its sanitizer runtimes for the tsan
  # preset (-Wthread-safety and ThreadSanitizer) and libFuzzer for the fuzz
  # preset (tests/fuzz, scripts/fuzz.sh)
  clang-format clang-tidy clang libclang-rt-14-dev libfuzzer-14-dev
  # the linker every preset uses when it is there (CMakeLists.txt: faster than ld.bfd)
  lld
  # the Slurm backend's tests: a real Slurm 22.05 that scripts/slurm.sh starts
  # without systemd (munge, MariaDB for slurmdbd, the daemons and the clients)
  slurmctld slurmd slurmdbd slurm-client slurmrestd slurm-wlm-jwt-plugin munge
  mariadb-server curl
  # the web dashboard's browser tests (web/tests: playwright-core drives it)
  chromium
  # /metrics: promtool checks the exposition text and the exported rules, and a
  # real Prometheus scrapes a live allotd in the tests (scripts/prometheus.sh)
  prometheus
  # scripts
  python3
  # the local executor: team accounts (useradd/groupadd), process tools
  passwd procps coreutils
)

missing=()
for package in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${db:Status-Abbrev}' "${package}" 2>/dev/null || true)"
  if [[ "${status}" != ii* ]]; then
    missing+=("${package}")
  fi
done
# Node.js 18+ and npm run the tests' OpenID provider (scripts/oidc-provider),
# build the web dashboard (scripts/web.sh) and run the Kubernetes schema check
# (tests/kubernetes/schema, npm ci of its lock file).
# A machine that already has them (Node 20 from NodeSource, say) keeps its
# own: Debian's npm package would conflict with it. Otherwise Debian's
# (Node 18 on bookworm).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages (and Node.js with npm) already installed"
  exit 0
fi

if [[ "$(id -u)" -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: done"
