#include "service/control/settled_queues.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "scheduler/pending_queues.h"

namespace allot {
namespace {

bool changes_nothing(const Plan& plan) {
  return plan.evictions.empty() && plan.preemptions.empty() && plan.admissions.empty() &&
         plan.reservations.empty() && plan.handovers.empty() && plan.withdrawn_handovers.empty();
}

// A single pod, no endpoint replica, no preemptor: what an identical later
// submit can be judged by.
bool plain(const PendingWorkload& w) {
  return w.pod_sets.size() == 1 && w.pod_sets[0].count == 1 &&
         w.replica_role == ReplicaRole::kNone && !w.preempted_by.valid();
}

// Blocked now, and no preemption can make room for it.
bool blocked_for_now(const PendingExplanation& e) {
  switch (e.reason) {
    case PendingReason::kQuotaExhausted:
    case PendingReason::kNoFittingNodes:
    case PendingReason::kExceedsCapacity:
    case PendingReason::kBlockedByStrictFifo:
    case PendingReason::kNoUsableFlavor: break;
    case PendingReason::kWaitingForPreemption:
    case PendingReason::kReserved:
    case PendingReason::kHeldForReservation: return false;
  }
  switch (e.preemption) {
    case PreemptionVerdict::kNotNeeded:
    case PreemptionVerdict::kNotAllowed:
    case PreemptionVerdict::kNoCandidates:
    case PreemptionVerdict::kInsufficient:
    case PreemptionVerdict::kFairShareRefused: return true;
    case PreemptionVerdict::kCandidatesTooYoung:
    case PreemptionVerdict::kPreempting:
    case PreemptionVerdict::kWaitingForVictims:
    case PreemptionVerdict::kDeferred: return false;
  }
  return false;
}

bool same_request(const PendingWorkload& a, const PendingWorkload& b) {
  return a.team == b.team && a.priority_class == b.priority_class && a.priority == b.priority &&
         a.pod_sets == b.pod_sets && a.max_runtime == b.max_runtime;
}

}  // namespace

bool SettledQueues::joins(const PendingWorkload& w) {
  if (!w.team.valid() || w.team.value() >= tails_.size()) return false;
  const std::optional<Settled>& team = tails_[w.team.value()];
  if (!team || !plain(w) || !same_request(team->tail, w) || !queue_before(team->head, w)) {
    return false;
  }
  joined_.push_back(w);
  return true;
}

void SettledQueues::find_tails(const Plan& plan, const Snapshot& snapshot) {
  std::vector<const PendingWorkload*> first;
  std::vector<const PendingWorkload*> last;
  for (const PendingWorkload& w : snapshot.pending) {
    if (!w.team.valid()) continue;
    const size_t team = w.team.value();
    if (team >= last.size()) {
      first.resize(team + 1, nullptr);
      last.resize(team + 1, nullptr);
    }
    if (first[team] == nullptr || queue_before(w, *first[team])) first[team] = &w;
    if (last[team] == nullptr || queue_before(*last[team], w)) last[team] = &w;
  }
  std::unordered_map<WorkloadId, size_t> team_of;
  for (size_t team = 0; team < last.size(); ++team) {
    if (last[team] != nullptr && plain(*last[team])) team_of.emplace(last[team]->id, team);
  }
  if (team_of.empty()) return;
  tails_.resize(last.size());
  // A team's queue is explained in its order: its tail's explanation comes
  // late, so the walk from the end stops soon.
  for (auto e = plan.explanations.rbegin(); e != plan.explanations.rend() && !team_of.empty();
       ++e) {
    const auto found = team_of.find(e->workload);
    if (found == team_of.end()) continue;
    if (blocked_for_now(*e)) {
      tails_[found->second] = Settled{*first[found->second], *last[found->second]};
    }
    team_of.erase(found);
  }
}

bool SettledQueues::settle(const Plan* plan, const Snapshot& snapshot, size_t seen) {
  tails_.clear();
  if (plan != nullptr && changes_nothing(*plan)) find_tails(*plan, snapshot);
  std::vector<PendingWorkload> late(
      joined_.begin() + static_cast<std::ptrdiff_t>(std::min(seen, joined_.size())), joined_.end());
  joined_.clear();
  bool cycle_needed = false;
  for (const PendingWorkload& w : late) {
    if (!joins(w)) cycle_needed = true;
  }
  return cycle_needed;
}

}  // namespace allot
