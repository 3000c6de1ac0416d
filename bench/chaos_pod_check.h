// The chaos bench's check of pod processes (bench/chaos_checks.h): no pod
// (bench/chaos_pods.h) of a workload that is deleted, finished (Cancelled,
// Succeeded, Failed) or waiting (Pending, Preempted) and not stopping is
// alive, and no pod of a workload runs twice. Pods still being stopped may
// take a moment: the check passes once a scan shows no violation, within
// kSettleLimit.
//
// Contract: adds violations to `result` and sets pods_alive; root sees every
// pod (pods run under their teams' accounts).
#pragma once

#include <string>

#include "bench/chaos_checks.h"
#include "bench/chaos_reader.h"

namespace allot::bench {

void check_pods(ChaosReader& reader, const std::string& data_dir, ChaosCheckResult& result);

}  // namespace allot::bench
