// WorkloadDescription: `allot describe workload`, for people.
//
// Contract: from the workload object and its events (docs/api.md,
// "Workloads") writes, in order: the identity and spec summary (name,
// namespace, uid, team, kind, priority class, command, max runtime, pod
// sets), the status (phase, reason, message, flavor, restarts, times and the
// last checkpoint reported, exit code, preemption), the pod placement table, a "Waiting:" block
// with the scheduler's explanation, queue position and estimated start when status.explanation is
// present, and the events table (AGE at `now`). Pure.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "base/time.h"

namespace allot::cli {

// `events` is the answer of GET .../events ({"items": [...]}).
std::string describe_workload(const nlohmann::json& workload, const nlohmann::json& events,
                              Timestamp now);

}  // namespace allot::cli
