#include "service/simulation/after_plan.h"

#include <algorithm>

#include "base/check.h"
#include "service/simulation/guarantee_tracker.h"

namespace allot {
namespace {

HeldWork held(size_t team, const std::vector<PodSetRequest>& pod_sets,
              const std::vector<PodSetAssignment>& assignment, Resource primary, bool open) {
  HeldWork work{team, 0, {}, open};
  for (size_t set = 0; set < assignment.size() && set < pod_sets.size(); ++set) {
    const int64_t per_pod = pod_sets[set].per_pod[primary];
    if (per_pod == 0) continue;
    for (const PodPlacement& pod : assignment[set].pods) {
      work.amount += per_pod;
      work.pods.emplace_back(pod.node.value(), per_pod);
    }
  }
  return work;
}

// The pending workloads `ids` name, in the order of `ids` (null where none).
std::vector<const PendingWorkload*> pending_of(const Snapshot& snapshot,
                                               const std::vector<WorkloadId>& ids) {
  std::vector<std::pair<WorkloadId, size_t>> sorted;
  for (size_t i = 0; i < ids.size(); ++i) sorted.emplace_back(ids[i], i);
  std::sort(sorted.begin(), sorted.end());
  std::vector<const PendingWorkload*> found(ids.size(), nullptr);
  if (sorted.empty()) return found;
  for (const PendingWorkload& p : snapshot.pending) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair(p.id, size_t{0}));
    for (; it != sorted.end() && it->first == p.id; ++it) found[it->second] = &p;
  }
  return found;
}

}  // namespace

AfterPlan after_plan(const Snapshot& snapshot, const Plan& plan,
                     const std::vector<int64_t>& nominal, Resource primary) {
  AfterPlan after;
  after.usage.assign(nominal.size(), 0);
  std::vector<WorkloadId> victims;  // of the plan's preemptions
  for (const Preemption& p : plan.preemptions) victims.push_back(p.victim);
  std::sort(victims.begin(), victims.end());
  for (const AdmittedWorkload& a : snapshot.admitted) {
    ALLOT_CHECK(a.team.value() < after.usage.size());
    after.usage[a.team.value()] += a.usage()[primary];
    const bool open = !a.terminating && !std::binary_search(victims.begin(), victims.end(), a.id);
    after.work.push_back(held(a.team.value(), a.pod_sets, a.assignment, primary, open));
  }
  std::vector<WorkloadId> admitted;
  for (const Admission& admission : plan.admissions) admitted.push_back(admission.workload);
  const std::vector<const PendingWorkload*> pending = pending_of(snapshot, admitted);
  for (size_t i = 0; i < plan.admissions.size(); ++i) {
    if (pending[i] == nullptr) continue;
    const size_t team = pending[i]->team.value();
    ALLOT_CHECK(team < after.usage.size());
    after.usage[team] += plan.admissions[i].usage[primary];
    after.work.push_back(
        held(team, pending[i]->pod_sets, plan.admissions[i].assignment, primary, true));
  }
  for (size_t t = 0; t < nominal.size(); ++t) after.quota_free += nominal[t] - after.usage[t];
  return after;
}

std::vector<int64_t> room_for(const Snapshot& snapshot, const Plan& plan, WorkloadId owed,
                              const std::vector<GuaranteeNode>& nodes, Resource primary) {
  std::vector<int64_t> room(nodes.size(), -1);
  for (size_t n = 0; n < nodes.size(); ++n) {
    const bool up =
        nodes[n].schedulable && (n >= snapshot.nodes.size() || snapshot.nodes[n].schedulable());
    if (up) room[n] = nodes[n].capacity;
  }
  for (const Reservation& r : plan.reservations) {
    if (r.starts_at != Timestamp::infinite_future() || r.workload == owed) continue;
    for (const NodeIndex node : r.nodes) {
      if (node.value() < room.size()) room[node.value()] = -1;
    }
  }
  std::vector<WorkloadId> promised;
  for (const Handover& h : plan.handovers) promised.push_back(h.workload);
  const std::vector<const PendingWorkload*> pending = pending_of(snapshot, promised);
  for (size_t i = 0; i < plan.handovers.size(); ++i) {
    const Handover& h = plan.handovers[i];
    if (h.workload == owed || pending[i] == nullptr) continue;
    for (const auto& [n, amount] :
         held(0, pending[i]->pod_sets, h.assignment, primary, false).pods) {
      if (n < room.size() && room[n] >= 0) room[n] = std::max<int64_t>(0, room[n] - amount);
    }
  }
  return room;
}

}  // namespace allot
