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
    state.admitted.push_back(admitted_from(w, it->second->flavor, it->second->assignment, now));
  }
  return state;
}

}  // namespace allot::bench
