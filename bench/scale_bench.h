// The scale test of the issue: builds the synthetic cluster of ScaleConfig,
// times Scheduler::plan() with std::chrono::steady_clock over a fresh state,
// a full (steady) state, one urgent gang that must preempt, and 3,000
// pending workloads, and measures memory per pending workload.
//
// Contract: the bench is an edge: it reads the clock and counts allocations
// (alloc_counter.h); the scheduler it drives stays pure. Progress and
// warnings (a preemption run without victims) go to `log`.
#pragma once

#include <cstdio>

#include "bench/scale_config.h"
#include "bench/scale_report.h"

namespace allot::bench {

ScaleReport run_scale(const ScaleConfig& config, std::FILE* log);

}  // namespace allot::bench
