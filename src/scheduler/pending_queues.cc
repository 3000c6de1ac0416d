#include "scheduler/pending_queues.h"

#include <algorithm>
#include <limits>

namespace allot {
namespace {

constexpr uint32_t kLeftPending = std::numeric_limits<uint32_t>::max();

// More changes than this share of the pending work: a rebuild is no dearer.
constexpr size_t kRebuildShare = 4;

}  // namespace

bool queue_before(const PendingWorkload& a, const PendingWorkload& b) {
  // Higher priority first, then earlier queue time, then lower id.
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.queued_at != b.queued_at) return a.queued_at < b.queued_at;
  return a.id < b.id;
}

PendingFacts pending_facts_of(const CompiledPolicy& policy, const PendingWorkload& w) {
  PendingFacts facts;
  facts.id = w.id;
  facts.team = w.team;
  facts.priority = w.priority;
  facts.queued_at = w.queued_at;
  facts.guaranteed = w.guaranteed();
  for (const PodSetRequest& set : w.pod_sets) {
    facts.total += set.per_pod * set.count;
    if (set.required_flavor.valid()) facts.pinned = set.required_flavor;
  }
  const auto& order = policy.team(w.team).flavor_order;
  facts.usable =
      !facts.pinned.valid() || std::find(order.begin(), order.end(), facts.pinned) != order.end();
  facts.first_flavor = facts.pinned.valid() ? facts.pinned : order.front();
  return facts;
}

PendingQueues::PendingQueues(const CompiledPolicy& policy,
                             const std::vector<PendingWorkload>& pending)
    : policy_(&policy), queues_(policy.team_count()) {
  facts_.reserve(pending.size());
  for (const PendingWorkload& w : pending) facts_.push_back(pending_facts_of(policy, w));
  std::vector<size_t> sizes(queues_.size(), 0);
  for (const PendingFacts& f : facts_) ++sizes[f.team.value()];
  for (size_t t = 0; t < queues_.size(); ++t) queues_[t].reserve(sizes[t]);
  for (uint32_t i = 0; i < facts_.size(); ++i) queues_[facts_[i].team.value()].push_back(i);
  for (auto& queue : queues_) {
    // Pending work kept by id is mostly in queue order already (ids follow
    // arrival): one linear check spares the sort of a deep backlog.
    const auto before = [&](uint32_t a, uint32_t b) {
      return queue_before(pending[a], pending[b]);
    };
    if (!std::is_sorted(queue.begin(), queue.end(), before)) {
      std::sort(queue.begin(), queue.end(), before);
    }
  }
  number_positions();
}

void PendingQueues::number_positions() {
  position_.assign(facts_.size(), 0);
  for (const auto& queue : queues_) {
    for (size_t i = 0; i < queue.size(); ++i) position_[queue[i]] = static_cast<int32_t>(i + 1);
  }
}

bool PendingQueues::matches(const CompiledPolicy& policy,
                            const std::vector<PendingWorkload>& pending) const {
  if (policy_ != &policy || facts_.size() != pending.size()) return false;
  return pending.empty() ||
         (facts_.front().id == pending.front().id && facts_.back().id == pending.back().id);
}

void PendingQueues::update(const CompiledPolicy& policy,
                           const std::vector<PendingWorkload>& pending,
                           std::vector<WorkloadId> touched) {
  if (policy_ != &policy || touched.size() * kRebuildShare > pending.size()) {
    *this = PendingQueues(policy, pending);
    return;
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  std::vector<uint32_t> moved_to(facts_.size(), kLeftPending);
  std::vector<uint32_t> added;
  if (!merge_facts(policy, pending, touched, moved_to, added)) {
    *this = PendingQueues(policy, pending);  // `touched` missed a change: start again
    return;
  }
  for (auto& queue : queues_) {
    size_t kept = 0;
    for (const uint32_t index : queue) {
      if (moved_to[index] != kLeftPending) queue[kept++] = moved_to[index];
    }
    queue.resize(kept);
  }
  insert_newcomers(pending, added);
  number_positions();
}

// Kept facts and touched ids, both by id, merge into the new pending order:
// a kept workload moves to its new index, a touched one leaves (and comes
// back, read again, when it is pending now).
bool PendingQueues::merge_facts(const CompiledPolicy& policy,
                                const std::vector<PendingWorkload>& pending,
                                const std::vector<WorkloadId>& touched,
                                std::vector<uint32_t>& moved_to, std::vector<uint32_t>& added) {
  std::vector<PendingFacts> facts;
  facts.reserve(pending.size());
  size_t i = 0;
  for (const WorkloadId id : touched) {
    for (; i < facts_.size() && facts_[i].id < id; ++i) {
      moved_to[i] = static_cast<uint32_t>(facts.size());
      facts.push_back(facts_[i]);
    }
    if (i < facts_.size() && facts_[i].id == id) ++i;  // left (and maybe back)
    if (facts.size() < pending.size() && pending[facts.size()].id == id) {
      added.push_back(static_cast<uint32_t>(facts.size()));
      facts.push_back(pending_facts_of(policy, pending[facts.size()]));
    }
  }
  for (; i < facts_.size(); ++i) {
    moved_to[i] = static_cast<uint32_t>(facts.size());
    facts.push_back(facts_[i]);
  }
  if (facts.size() != pending.size()) return false;
  facts_ = std::move(facts);
  return true;
}

// Newcomers of a team go in by binary search: only they and the workloads
// they are compared with are read.
void PendingQueues::insert_newcomers(const std::vector<PendingWorkload>& pending,
                                     std::vector<uint32_t>& added) {
  const auto before = [&](uint32_t a, uint32_t b) { return queue_before(pending[a], pending[b]); };
  std::sort(added.begin(), added.end(), [&](uint32_t a, uint32_t b) {
    if (facts_[a].team != facts_[b].team) return facts_[a].team < facts_[b].team;
    return before(a, b);
  });
  for (size_t from = 0; from < added.size();) {
    const TeamIndex team = facts_[added[from]].team;
    size_t to = from;
    while (to < added.size() && facts_[added[to]].team == team) ++to;
    std::vector<uint32_t>& queue = queues_[team.value()];
    std::vector<uint32_t> merged;
    merged.reserve(queue.size() + (to - from));
    auto rest = queue.begin();
    for (size_t k = from; k < to; ++k) {
      const auto at = std::upper_bound(rest, queue.end(), added[k], before);
      merged.insert(merged.end(), rest, at);
      merged.push_back(added[k]);
      rest = at;
    }
    merged.insert(merged.end(), rest, queue.end());
    queue.swap(merged);
    from = to;
  }
}

}  // namespace allot
