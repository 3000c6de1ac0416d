// Workload explanation: why a waiting workload waits, as `allot describe`
// and the API show it (DESIGN.md section 3: every decision carries its
// reason).
//
// Contract: pure. For a waiting workload (Pending, Preempted) returns the
// explanation: the policy cannot run it ("Unschedulable"), or the last
// scheduling cycle's reason, preemption verdict, queue position and estimated
// start, or "not yet considered" before the first cycle. Other phases: none.
#pragma once

#include <optional>

#include "base/time.h"
#include "model/views/workload_view.h"
#include "service/control/live_workload.h"
#include "service/control/server_state.h"

namespace allot {

std::optional<PendingExplanationView> explain_waiting(const LiveWorkload& live,
                                                      const ServerState& state, Timestamp now);

WorkloadView workload_view(const LiveWorkload& live, const ServerState& state, Timestamp now);

}  // namespace allot
