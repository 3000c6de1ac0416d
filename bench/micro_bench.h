// Google Benchmark microbenchmarks of the scheduler's hot paths:
// QuotaTree::fits on the 3-level cohort tree, GangPlacer::place for 1 and
// 64 GPUs on the 10,000-node cluster (half full), and plan() on a small
// cluster (100 nodes, 10 teams, 1,000 pending).
#pragma once

namespace allot::bench {

// Runs the benchmarks; `argv` holds Google Benchmark's flags
// (--benchmark_filter=..., --benchmark_format=json, ...) after argv[0].
int run_micro(int argc, char** argv);

}  // namespace allot::bench
