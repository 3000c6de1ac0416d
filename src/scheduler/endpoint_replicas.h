// Endpoint replicas: how an InferenceEndpoint reaches the scheduler.
//
// Representation (docs/endpoints.md, DESIGN.md section 3): each replica of an
// endpoint is a schedulable unit of its own, a PendingWorkload with its own
// WorkloadId whose pod sets are the endpoint's (one replica = one gang). The
// caller (the simulator, allotd) assigns the ids and decides how many
// replicas are wanted; the scheduler sees only the units, so a plan stays a
// pure function of the snapshot. Replica i < min is *guaranteed*: it keeps
// the endpoint's priority, is admitted only within its team's nominal quota
// (never by borrowing; the team's burst replicas do not count against it) and is never a victim of
// another team's reclaim or fair-share preemption. Replica i >= min is *burst*: its effective
// priority is burst_priority(), below every priority class of the policy, so it runs on borrowed or
// idle capacity, is admitted after all other work of its team and is the first victim when capacity
// is reclaimed. The endpoint's priority class still gives every replica its grace period and
// minimum runtime.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "model/workload.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/quota_tree.h"
#include "scheduler/snapshot.h"

namespace allot {

// One below the lowest priority class value of the policy (0 when it has none).
int32_t burst_priority(const CompiledPolicy& policy);

// The request of replica `replica` (0-based) of an endpoint: the endpoint's
// request (make_pending_workload) with `guaranteed` and the effective
// priority set as above. Fails with the field at fault when the workload is
// not a valid InferenceEndpoint or `replica` lies outside [0, max).
Result<PendingWorkload> make_replica_request(const CompiledPolicy& policy, const Workload& endpoint,
                                             int32_t replica, WorkloadId id, Timestamp queued_at);

// What the burst replicas of each team hold in each flavor, during one cycle.
// Empty (and free) until the first add().
class BurstUsage {
 public:
  BurstUsage(int32_t teams, int32_t flavors) : teams_(teams), flavors_(flavors) {}
  void add(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount);
  // A burst replica stopped in the cycle (its victim search let it go at once).
  void remove(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount);
  [[nodiscard]] const ResourceVector& of(TeamIndex team, FlavorIndex flavor) const;

 private:
  [[nodiscard]] size_t slot(TeamIndex team, FlavorIndex flavor) const {
    return static_cast<size_t>(team.value()) * static_cast<size_t>(flavors_) + flavor.value();
  }
  int32_t teams_;
  int32_t flavors_;
  std::vector<ResourceVector> by_team_flavor_;
};

// For a guaranteed request: the first governed resource whose use would rise
// above the team's nominal quota in `flavor` (QuotaShortfall::fr == -1 when
// the request fits within nominal), with the team as the binding node. The
// team's burst replicas (`burst`, what they hold there) do not count: they
// stand on borrowed capacity, and become the borrowers a reclaim takes first.
QuotaShortfall nominal_shortfall(const QuotaTree& quota, TeamIndex team, FlavorIndex flavor,
                                 const ResourceVector& request, const ResourceVector& burst);

}  // namespace allot
