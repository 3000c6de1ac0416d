#!/usr/bin/env bash
# The test command: installs dependencies, builds the debug preset, runs every
# test (ctest) and the format check. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

echo "== configure (debug)"
cmake --preset debug

echo "== build (debug)"
cmake --build build/debug -j"$(nproc)"

echo "== test (debug)"
ctest --preset debug --output-on-failure -j2

echo "== format"
scripts/check-format.sh

echo "test: all checks passed"
