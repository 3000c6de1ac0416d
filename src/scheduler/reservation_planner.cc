#include "scheduler/reservation_planner.h"

#include <algorithm>
#include <span>
#include <tuple>
#include <vector>

#include "scheduler/reservation_steps.h"

namespace allot {
namespace {

int32_t pods_at(std::span<const NodeStep> steps, Timestamp t) {
  int32_t pods = 0;
  for (const NodeStep& s : steps) {
    if (s.at > t) break;
    pods = s.pods;
  }
  return pods;
}

// The earliest time by which the usable candidates hold `pods` pods together
// (every delta is positive, so the running total first reaches `pods` at the
// same time whatever the order of equal times).
Timestamp earliest_cover(const ShapeSteps& shape, const std::vector<bool>& usable, int32_t pods) {
  int64_t total = 0;
  for (const ShapeSteps::Change& c : shape.changes()) {
    if (!usable[c.candidate]) continue;
    total += c.delta;
    if (total >= pods) return c.at;
  }
  return Timestamp::infinite_future();
}

// Node-granular: every pod is counted at the largest pod shape of the gang.
ResourceVector largest_pod(const PendingWorkload& workload, int32_t* pods) {
  ResourceVector per_pod;
  *pods = 0;
  for (const PodSetRequest& set : workload.pod_sets) {
    if (per_pod.fits_in(set.per_pod)) per_pod = set.per_pod;
    *pods += set.count;
  }
  return per_pod;
}

}  // namespace

bool reservation_covers(const CapacityIndex& capacity, const ReleaseTimeline& timeline,
                        const PendingWorkload& workload, std::span<const NodeIndex> nodes,
                        Timestamp at, Timestamp now) {
  int32_t pods = 0;
  const ResourceVector per_pod = largest_pod(workload, &pods);
  int32_t covered = 0;
  std::vector<NodeStep> steps;
  for (NodeIndex node : nodes) {
    if (!capacity.schedulable(node)) return false;
    steps.clear();
    append_node_steps(capacity, timeline, node, per_pod, pods, now, steps);
    covered += pods_at(steps, at);
  }
  return covered >= pods;
}

std::optional<Reservation> plan_gang_reservation(const CapacityIndex& capacity,
                                                 const ReleaseTimeline& timeline,
                                                 const GangReservationRequest& request,
                                                 ReservationSteps* kept) {
  const PendingWorkload& workload = *request.workload;
  int32_t pods = 0;
  const ResourceVector per_pod = largest_pod(workload, &pods);
  if (pods == 0) return std::nullopt;
  ReservationSteps own;  // built for this gang alone when nothing is kept
  const ShapeSteps& shape = (kept != nullptr ? *kept : own)
                                .of(capacity, timeline, request.flavor, per_pod, pods, request.now);
  std::vector<bool> usable(shape.size());
  for (size_t c = 0; c < shape.size(); ++c) usable[c] = request.reservable(shape.node(c));
  Timestamp starts_at = earliest_cover(shape, usable, pods);
  if (starts_at == Timestamp::infinite_future()) return std::nullopt;
  starts_at = std::max(starts_at, request.not_before);
  // The fewest nodes that hold the gang at its start.
  struct Ready {
    int32_t pods = 0;
    size_t candidate = 0;
  };
  std::vector<Ready> ready;
  for (size_t c = 0; c < shape.size(); ++c) {
    if (!usable[c]) continue;
    if (const int32_t n = pods_at(shape.steps(c), starts_at); n > 0) ready.push_back({n, c});
  }
  // Fullest first; then the nodes it held; then the nodes that are busy
  // longest before the start (reserving a node that is free now idles it);
  // then by place, so that the gang's nodes share blocks and racks.
  const CompiledPolicy& policy = capacity.policy();
  const auto key = [&](const Ready& r) {
    const std::span<const NodeStep> steps = shape.steps(r.candidate);
    Timestamp ready_at = steps.front().at;
    for (const NodeStep& s : steps) {
      if (s.pods <= r.pods) ready_at = s.at;
    }
    const NodeIndex node = shape.node(r.candidate);
    const bool held =
        std::find(request.held.begin(), request.held.end(), node) != request.held.end();
    return std::make_tuple(-r.pods, !held, -ready_at.ms(), policy.node(node).block,
                           policy.node(node).rack, node);
  };
  std::sort(ready.begin(), ready.end(),
            [&](const Ready& a, const Ready& b) { return key(a) < key(b); });
  Reservation reservation{workload.id, request.flavor, {}, starts_at};
  int32_t covered = 0;
  for (const Ready& r : ready) {
    if (covered >= pods) break;
    covered += r.pods;
    reservation.nodes.push_back(shape.node(r.candidate));
  }
  std::sort(reservation.nodes.begin(), reservation.nodes.end());
  return reservation;
}

}  // namespace allot
