#include "scheduler/plan_effects.h"

#include <algorithm>

namespace allot {

bool PlanEffects::any_immediate_stop() const {
  return std::any_of(stops.begin(), stops.end(),
                     [](const StopEffect& stop) { return stop.grace.ms() <= 0; });
}

PlanEffects carry_out(const Plan& plan, RunTable& runs) {
  PlanEffects effects;
  for (const Eviction& eviction : plan.evictions) {
    WorkloadRun* run = runs.find_run(eviction.workload);
    if (run == nullptr || !request_stop(*run, StopCause::kEvict)) continue;
    effects.stops.push_back({.workload = eviction.workload,
                             .cause = StopCause::kEvict,
                             .grace = Duration(),
                             .eviction = &eviction,
                             .preemption = nullptr});
  }
  for (const Preemption& preemption : plan.preemptions) {
    WorkloadRun* run = runs.find_run(preemption.victim);
    if (run == nullptr || run->stopping() || !request_stop(*run, StopCause::kPreempt)) continue;
    const Duration grace = std::max(preemption.grace_period, Duration());
    run->preempted_by = preemption.beneficiary;
    run->preempting_for = preemption.beneficiary;
    run->released = grace.ms() <= 0;
    effects.stops.push_back({.workload = preemption.victim,
                             .cause = StopCause::kPreempt,
                             .grace = grace,
                             .eviction = nullptr,
                             .preemption = &preemption});
  }
  for (const Admission& admission : plan.admissions) {
    WorkloadRun* run = runs.find_run(admission.workload);
    if (run == nullptr || !run->waiting()) continue;
    start_run(*run);
    effects.starts.push_back(&admission);
  }
  return effects;
}

}  // namespace allot
