#include "scheduler/endpoint_replicas.h"

#include <algorithm>
#include <limits>
#include <string>

#include "scheduler/workload_request.h"

namespace allot {

int32_t burst_priority(const CompiledPolicy& policy) {
  const auto& classes = policy.priority_classes();
  if (classes.empty()) return 0;
  const auto lowest =
      std::min_element(classes.begin(), classes.end(),
                       [](const auto& a, const auto& b) { return a.value < b.value; });
  // Saturate rather than overflow on a class at the type's minimum.
  constexpr int32_t kLowest = std::numeric_limits<int32_t>::min();
  return lowest->value == kLowest ? kLowest : lowest->value - 1;
}

Result<PendingWorkload> make_replica_request(const CompiledPolicy& policy, const Workload& endpoint,
                                             int32_t replica, WorkloadId id, Timestamp queued_at) {
  if (endpoint.spec.kind != WorkloadKind::kInferenceEndpoint || !endpoint.spec.endpoint) {
    return invalid_argument("replicas belong to a workload of kind InferenceEndpoint", "spec.kind");
  }
  const EndpointSpec& spec = *endpoint.spec.endpoint;
  if (replica < 0 || replica >= spec.max_replicas) {
    return out_of_range("replica " + std::to_string(replica) + " is outside [0, " +
                            std::to_string(spec.max_replicas) + ")",
                        "spec.replicas.max");
  }
  ALLOT_ASSIGN_OR_RETURN(PendingWorkload request,
                         make_pending_workload(policy, endpoint, id, queued_at));
  request.replica_role =
      replica < spec.min_replicas ? ReplicaRole::kGuaranteed : ReplicaRole::kBurst;
  if (request.replica_role == ReplicaRole::kBurst) request.priority = burst_priority(policy);
  return request;
}

void BurstUsage::add(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount) {
  if (by_team_flavor_.empty()) {
    by_team_flavor_.resize(static_cast<size_t>(teams_) * static_cast<size_t>(flavors_));
  }
  by_team_flavor_[slot(team, flavor)] += amount;
}

void BurstUsage::remove(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount) {
  if (!by_team_flavor_.empty()) by_team_flavor_[slot(team, flavor)] -= amount;
}

const ResourceVector& BurstUsage::of(TeamIndex team, FlavorIndex flavor) const {
  static const ResourceVector kNone;
  return by_team_flavor_.empty() ? kNone : by_team_flavor_[slot(team, flavor)];
}

QuotaShortfall nominal_shortfall(const QuotaTree& quota, TeamIndex team, FlavorIndex flavor,
                                 const ResourceVector& request, const ResourceVector& burst) {
  const CompiledPolicy& policy = quota.policy();
  const int32_t node = policy.team(team).quota_node;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (request[r] == 0 || !policy.governed(fr)) continue;
    const int64_t left = quota.nominal(node, fr) - (quota.usage(node, fr) - burst[r]);
    if (request[r] > left) return {fr, node, request[r], std::max<int64_t>(left, 0)};
  }
  return {};
}

}  // namespace allot
