// Plain-words rendering of scheduler decisions, for `allot describe`, the
// simulator's reports and the audit log.
//
// Contract: pure formatting of values; `now` is only used to print relative
// times ("in 5m30s"), to the second, rounded up, from one second on.
#pragma once

#include <string>
#include <string_view>

#include "scheduler/compiled_policy.h"
#include "scheduler/plan.h"

namespace allot {

std::string_view pending_reason_name(PendingReason reason);
std::string_view preemption_verdict_name(PreemptionVerdict verdict);
std::string_view preemption_reason_name(PreemptionReason reason);

// e.g. "Waiting for quota: cohort 'org' has 0 of gpu in flavor h100 available,
// 8 requested; team 'research' borrows 24 of it. Preemption was considered:
// no candidate (...). Position 3 in team 'production'. Estimated start: in 12m."
std::string describe_pending(const CompiledPolicy& policy, const PendingExplanation& e,
                             Timestamp now);

}  // namespace allot
