#include "scheduler/inflight_preemptions.h"

#include <algorithm>

namespace allot {

void InflightPreemptions::add_victim(uint32_t beneficiary, const AdmittedWorkload& victim) {
  auto [it, first] = by_pending_.try_emplace(beneficiary);
  Beneficiary& b = it->second;
  if (first) b.flavor = victim.flavor;
  if (victim.flavor == b.flavor) b.victims_hold += victim.usage();
}

const ResourceVector& InflightPreemptions::hold(uint32_t index, const ResourceVector& need) {
  Beneficiary& b = by_pending_.at(index);
  for (const Resource r : kAllResources) {
    b.held[r] = std::max<int64_t>(0, need[r] - b.victims_hold[r]);
  }
  return b.held;
}

}  // namespace allot
