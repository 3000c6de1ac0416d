#!/usr/bin/env bash
# The run command: installs dependencies, builds the release preset and runs the
# main job, a what-if simulation of a team reclaiming its lent GPUs.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

echo "== configure (release)"
cmake --preset release

echo "== build (release)"
cmake --build build/release --target allot -j"$(nproc)"

scenario=examples/scenarios/seed-reclaim.yaml
echo "== allot simulate --scenario ${scenario}"
./build/release/src/app/allot simulate --scenario "${scenario}"

cat <<NEXT

What to try next:
  ./build/release/src/app/allot simulate --scenario ${scenario} -o json
      the same run as JSON; add --workloads out.csv for one row per workload
  ./build/release/src/app/allot simulate --scenario examples/scenarios/kueue-baseline.yaml
      Kueue's scheduler performance baseline: 15,000 workloads, 30 teams
  ./build/release/src/app/allot --help
      every command
  scripts/test.sh
      build and run every test
  cmake --build build/release --target allot-bench && ./build/release/bench/allot-bench scale -o json
      the scale benchmark (10,000 nodes, 1,000 teams, 100,000 pending workloads)
NEXT
