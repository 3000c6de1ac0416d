#include "scheduler/node_tenancy.h"

namespace allot {

NodeTenancy::NodeTenancy(const CompiledPolicy& policy, std::span<const AdmittedWorkload> admitted)
    : anchored_(admitted.size(), false), anchored_gpus_(policy.node_count(), 0) {
  // GPUs in use per team and flavor by work not stopping.
  const int32_t flavors = policy.flavor_count();
  std::vector<int64_t> gpus(static_cast<size_t>(policy.team_count()) * flavors, 0);
  const auto slot = [&](const AdmittedWorkload& w) {
    return static_cast<size_t>(w.team.value()) * flavors + w.flavor.value();
  };
  for (const AdmittedWorkload& w : admitted) {
    if (!w.terminating) gpus[slot(w)] += w.usage().gpu();
  }
  std::vector<bool> within(gpus.size(), true);
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    const int32_t quota_node = policy.team(TeamIndex(t)).quota_node;
    for (int32_t f = 0; f < flavors; ++f) {
      const int32_t fr =
          CompiledPolicy::fr_of(FlavorIndex(static_cast<uint16_t>(f)), Resource::kGpu);
      const size_t s = static_cast<size_t>(t) * flavors + f;
      if (policy.governed(fr) && gpus[s] > policy.limits(quota_node, fr).nominal) {
        within[s] = false;
        any_borrowing_ = true;
      }
    }
  }
  for (uint32_t i = 0; i < admitted.size(); ++i) {
    const AdmittedWorkload& w = admitted[i];
    if (w.terminating || !within[slot(w)]) continue;
    anchored_[i] = true;
    add_anchored(w.pod_sets, w.assignment, 1);
  }
}

void NodeTenancy::admitted(std::span<const PodSetRequest> pod_sets,
                           std::span<const PodSetAssignment> assignment, bool borrowing) {
  if (borrowing) {
    any_borrowing_ = true;
  } else {
    add_anchored(pod_sets, assignment, 1);
  }
}

void NodeTenancy::stopped(uint32_t index, const AdmittedWorkload& w) {
  if (anchored_[index]) add_anchored(w.pod_sets, w.assignment, -1);
  anchored_[index] = false;
}

void NodeTenancy::add_anchored(std::span<const PodSetRequest> pod_sets,
                               std::span<const PodSetAssignment> assignment, int64_t sign) {
  for (size_t set = 0; set < assignment.size() && set < pod_sets.size(); ++set) {
    const int64_t gpus = pod_sets[set].per_pod.gpu() * sign;
    for (const PodPlacement& pod : assignment[set].pods) {
      if (pod.node.value() < anchored_gpus_.size()) anchored_gpus_[pod.node.value()] += gpus;
    }
  }
}

}  // namespace allot
