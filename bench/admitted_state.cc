#include "bench/admitted_state.h"

#include <unordered_map>

namespace allot::bench {

AdmittedState apply_admissions(const std::vector<PendingWorkload>& pending, const Plan& plan,
                               Timestamp now) {
  std::unordered_map<uint64_t, const Admission*> admission_of;
  admission_of.reserve(plan.admissions.size());
  for (const Admission& a : plan.admissions) admission_of.emplace(a.workload.value(), &a);
  AdmittedState state;
  state.admitted.reserve(plan.admissions.size());
  state.pending.reserve(pending.size() - plan.admissions.size());
  for (const PendingWorkload& w : pending) {
    auto it = admission_of.find(w.id.value());
    if (it == admission_of.end()) {
      state.pending.push_back(w);
      continue;
    }
    AdmittedWorkload a;
    a.id = w.id;
    a.team = w.team;
    a.priority_class = w.priority_class;
    a.priority = w.priority;
    a.queued_at = w.queued_at;
    a.admitted_at = now;
    a.last_checkpoint = now;
    a.max_runtime = w.max_runtime;
    a.flavor = it->second->flavor;
    a.pod_sets = w.pod_sets;
    a.assignment = it->second->assignment;
    state.admitted.push_back(std::move(a));
  }
  return state;
}

}  // namespace allot::bench
