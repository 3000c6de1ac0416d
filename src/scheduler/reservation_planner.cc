#include "scheduler/reservation_planner.h"

#include <algorithm>
#include <span>
#include <tuple>
#include <vector>

namespace allot {
namespace {

// How many pods of `per_pod` fit in `free`, at most `cap`.
int32_t pods_in(const ResourceVector& free, const ResourceVector& per_pod, int32_t cap) {
  int32_t pods = 0;
  while (pods < cap && (per_pod * (pods + 1)).fits_in(free)) ++pods;
  return pods;
}

// From `at` on, the node holds `pods` pods (steps only grow).
struct Step {
  Timestamp at;
  int32_t pods = 0;
};

// Appends the node's steps to `steps` (one buffer for all nodes: no
// allocation per node).
void node_steps(const CapacityIndex& capacity, const ReleaseTimeline& timeline, NodeIndex node,
                const ResourceVector& per_pod, int32_t cap, Timestamp now,
                std::vector<Step>& steps) {
  ResourceVector free = capacity.free(node);
  int32_t pods = pods_in(free, per_pod, cap);
  if (pods > 0) steps.push_back({now, pods});
  for (const auto& release : timeline.node_releases(node)) {
    if (pods == cap) break;
    free += release.amount;
    const int32_t more = pods_in(free, per_pod, cap);
    if (more > pods) steps.push_back({std::max(release.at, now), pods = more});
  }
}

int32_t pods_at(std::span<const Step> steps, Timestamp t) {
  int32_t pods = 0;
  for (const Step& s : steps) {
    if (s.at > t) break;
    pods = s.pods;
  }
  return pods;
}

struct Candidate {
  NodeIndex node;
  int32_t block = 0;
  int32_t rack = 0;
  bool held = false;
  std::span<const Step> steps;  // into the planner's one buffer
};

// The earliest time by which the candidates hold `pods` pods together.
Timestamp earliest_cover(const std::vector<Candidate>& candidates, int32_t pods) {
  struct Change {
    Timestamp at;
    int32_t delta = 0;
  };
  std::vector<Change> changes;
  for (const Candidate& c : candidates) {
    int32_t before = 0;
    for (const Step& s : c.steps) {
      changes.push_back({s.at, s.pods - before});
      before = s.pods;
    }
  }
  // Every delta is positive (a node's steps only grow), so the running total
  // first reaches `pods` at the same time whatever the order of equal times.
  std::sort(changes.begin(), changes.end(),
            [](const Change& a, const Change& b) { return a.at < b.at; });
  int64_t total = 0;
  for (const Change& c : changes) {
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
  std::vector<Step> steps;
  for (NodeIndex node : nodes) {
    if (!capacity.schedulable(node)) return false;
    steps.clear();
    node_steps(capacity, timeline, node, per_pod, pods, now, steps);
    covered += pods_at(steps, at);
  }
  return covered >= pods;
}

std::optional<Reservation> plan_gang_reservation(const CapacityIndex& capacity,
                                                 const ReleaseTimeline& timeline,
                                                 const GangReservationRequest& request) {
  const PendingWorkload& workload = *request.workload;
  int32_t pods = 0;
  const ResourceVector per_pod = largest_pod(workload, &pods);
  if (pods == 0) return std::nullopt;
  const CompiledPolicy& policy = capacity.policy();
  std::vector<Candidate> candidates;
  std::vector<Step> steps;
  std::vector<size_t> first_step;  // by candidate: where its steps start in `steps`
  for (NodeIndex node : capacity.topology().nodes_of_flavor(request.flavor)) {
    if (!capacity.schedulable(node) || !per_pod.fits_in(policy.node(node).node.capacity)) continue;
    if (!request.reservable(node)) continue;
    const size_t first = steps.size();
    node_steps(capacity, timeline, node, per_pod, pods, request.now, steps);
    if (steps.size() == first) continue;
    const bool held =
        std::find(request.held.begin(), request.held.end(), node) != request.held.end();
    candidates.push_back({node, policy.node(node).block, policy.node(node).rack, held, {}});
    first_step.push_back(first);
  }
  // The buffer no longer grows: the spans can point into it.
  for (size_t i = 0; i < candidates.size(); ++i) {
    const size_t end = i + 1 < candidates.size() ? first_step[i + 1] : steps.size();
    candidates[i].steps = std::span<const Step>(steps).subspan(first_step[i], end - first_step[i]);
  }
  Timestamp starts_at = earliest_cover(candidates, pods);
  if (starts_at == Timestamp::infinite_future()) return std::nullopt;
  starts_at = std::max(starts_at, request.not_before);
  // The fewest nodes that hold the gang at its start: fullest first, then the
  // ones it held, then by place (same block and rack together).
  std::vector<std::pair<int32_t, const Candidate*>> ready;
  for (const Candidate& c : candidates) {
    if (const int32_t n = pods_at(c.steps, starts_at); n > 0) ready.emplace_back(n, &c);
  }
  // Fullest first; then the nodes it held; then the nodes that are busy
  // longest before the start (reserving a node that is free now idles it);
  // then by place, so that the gang's nodes share blocks and racks.
  const auto key = [&](const std::pair<int32_t, const Candidate*>& r) {
    const Candidate& c = *r.second;
    Timestamp ready_at = c.steps.front().at;
    for (const Step& s : c.steps) {
      if (s.pods <= r.first) ready_at = s.at;
    }
    return std::make_tuple(-r.first, !c.held, -ready_at.ms(), c.block, c.rack, c.node);
  };
  std::sort(ready.begin(), ready.end(),
            [&](const auto& a, const auto& b) { return key(a) < key(b); });
  Reservation reservation{workload.id, request.flavor, {}, starts_at};
  int32_t covered = 0;
  for (const auto& [n, candidate] : ready) {
    if (covered >= pods) break;
    covered += n;
    reservation.nodes.push_back(candidate->node);
  }
  std::sort(reservation.nodes.begin(), reservation.nodes.end());
  return reservation;
}

}  // namespace allot
