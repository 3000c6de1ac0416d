#include "scheduler/reservation_planner.h"

#include <algorithm>
#include <tuple>

namespace allot {
namespace {

// Earliest time at which `node` has room for `pods` pods of `per_pod`.
Timestamp node_ready_at(const CapacityIndex& capacity, const ReleaseTimeline& timeline,
                        NodeIndex node, const ResourceVector& per_pod, int32_t pods,
                        Timestamp now) {
  const ResourceVector needed = per_pod * pods;
  ResourceVector free = capacity.free(node);
  if (needed.fits_in(free)) return now;
  for (const auto& release : timeline.node_releases(node)) {
    free += release.amount;
    if (needed.fits_in(free)) return release.at;
  }
  return Timestamp::infinite_future();
}

}  // namespace

std::optional<Reservation> reserve_for_gang(CapacityIndex& capacity,
                                            const ReleaseTimeline& timeline,
                                            const PendingWorkload& workload, FlavorIndex flavor,
                                            Timestamp now) {
  // Reservations are node-granular: one pod shape (the largest) per node.
  ResourceVector per_pod;
  int32_t pods = 0;
  for (const PodSetRequest& set : workload.pod_sets) {
    if (per_pod.fits_in(set.per_pod)) per_pod = set.per_pod;
    pods += set.count;
  }
  const CompiledPolicy& policy = capacity.policy();
  struct Ready {
    Timestamp at;
    int32_t block = 0;
    int32_t rack = 0;
    NodeIndex node;
  };
  std::vector<Ready> ready;
  for (NodeIndex node : capacity.topology().nodes_of_flavor(flavor)) {
    if (!capacity.schedulable(node) || !per_pod.fits_in(policy.node(node).node.capacity)) continue;
    if (capacity.reserved(node) && capacity.reserved_for(node) != workload.id) continue;
    const Timestamp at = node_ready_at(capacity, timeline, node, per_pod, 1, now);
    if (at != Timestamp::infinite_future()) {
      ready.push_back({at, policy.node(node).block, policy.node(node).rack, node});
    }
  }
  if (pods == 0 || static_cast<int32_t>(ready.size()) < pods) return std::nullopt;
  std::sort(ready.begin(), ready.end(), [](const Ready& a, const Ready& b) {
    return std::tie(a.at, a.block, a.rack, a.node) < std::tie(b.at, b.block, b.rack, b.node);
  });
  ready.resize(pods);
  Reservation reservation{workload.id, flavor, {}, ready.back().at};
  for (const Ready& r : ready) {
    reservation.nodes.push_back(r.node);
    capacity.reserve(r.node, workload.id, reservation.starts_at);
  }
  std::sort(reservation.nodes.begin(), reservation.nodes.end());
  return reservation;
}

}  // namespace allot
