// The chaos bench's check of GPUs and quotas (bench/chaos_checks.h): at a
// quiet moment (the Admitted and Running workloads the same before and after
// the nodes and /api/v1/top are read), no GPU of a node is in two placements,
// no node holds more than its capacity or other than its placements, no
// workload is on more nodes' lists than it has pods, and each team's usage in
// /api/v1/top is the GPUs of its Admitted and Running workloads.
//
// Contract: adds violations (or an error) to `result`; sets gpus_held.
#pragma once

#include "bench/chaos_checks.h"
#include "bench/chaos_reader.h"

namespace allot::bench {

void check_usage(ChaosReader& reader, ChaosCheckResult& result);

}  // namespace allot::bench
