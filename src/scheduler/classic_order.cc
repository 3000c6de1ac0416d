#include <algorithm>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "scheduler/admission_order.h"

namespace allot {
namespace {

class ClassicOrder final : public AdmissionOrder {
 public:
  ClassicOrder(QuotaTree& quota, const TeamQueues& queues, const std::vector<PendingFacts>& facts)
      : quota_(quota),
        queues_(queues),
        facts_(facts),
        version_(quota.policy().team_count(), 0),
        scanned_until_(quota.policy().team_count(), 0),
        usage_seen_(static_cast<size_t>(quota.policy().team_count()) * quota.policy().fr_count(),
                    0) {
    for (int32_t t = 0; t < quota.policy().team_count(); ++t) refresh(TeamIndex(t));
  }

  TeamIndex next() override {
    while (!heap_.empty()) {
      const Entry& top = heap_.front();
      if (top.version == version_[top.team.value()]) return top.team;
      std::pop_heap(heap_.begin(), heap_.end());
      heap_.pop_back();
    }
    return TeamIndex::invalid();
  }

  // The team refreshed is most often the one next() gave, still on top: its
  // new entry then takes the top's place (one sift down, not a pop and a push).
  // Entries are ordered by their workload's id last, so the order of the
  // teams given does not depend on the heap's shape.
  void refresh(TeamIndex team) override {
    const uint32_t version = ++version_[team.value()];
    const bool on_top = !heap_.empty() && heap_.front().team == team;
    if (!queues_.has_head(team)) return;
    const uint32_t head = queues_.head(team);
    const PendingFacts& f = facts_[head];
    uint8_t tier = quota_.would_borrow(team, f.first_flavor, f.total) ? kBorrows : kWithin;
    uint32_t ranked = head;
    if (tier == kBorrows) {
      const uint32_t within = first_within_nominal(team);
      if (within != UINT32_MAX) {
        ranked = within;
        tier = kWithinBehind;
      }
    }
    const PendingFacts& w = facts_[ranked];
    const Entry entry{tier, -w.priority, w.queued_at.ms(), w.id.value(), team, version};
    if (on_top) {
      replace_top(entry);
    } else {
      heap_.push_back(entry);
      std::push_heap(heap_.begin(), heap_.end());
    }
  }

 private:
  // Tiers, first to last: the head would not borrow; it would, but work of
  // the team behind it would not (ranked by that work); it would.
  static constexpr uint8_t kWithin = 0;
  static constexpr uint8_t kWithinBehind = 1;
  static constexpr uint8_t kBorrows = 2;
  struct Entry {
    uint8_t tier;
    int32_t neg_priority;
    int64_t queued_ms;
    uint64_t id;
    TeamIndex team;
    uint32_t version;
    // A max-heap: "less" means "later".
    bool operator<(const Entry& o) const {
      return std::tie(tier, neg_priority, queued_ms, id) >
             std::tie(o.tier, o.neg_priority, o.queued_ms, o.id);
    }
  };

  // A team whose head would borrow is ranked by its first workload behind the
  // head that would not (BestEffortFIFO only, looking at most kLookahead deep),
  // after every head that would not borrow and before the heads that would.
  // Kueue sets an inadmissible head aside, so that workload would head the
  // team's queue, unborrowing, in a later cycle; here the whole queue is tried
  // in one cycle, and ranked by its head the team came after older borrowing
  // work of other teams, which took the room its guarantee needed (issue 18).
  // UINT32_MAX when there is none.
  //
  // Whether a workload would borrow depends only on its facts and its team's
  // usage, and stays true while that usage does not fall: the queue entries
  // a scan found borrowing are not read again (scanned_until_) until the
  // team's usage of some flavor-resource falls below what it was then
  // (usage_seen_; immediate stops of victims, handovers).
  [[nodiscard]] uint32_t first_within_nominal(TeamIndex team) {
    constexpr size_t kLookahead = 32;
    if (quota_.policy().team(team).queueing != QueueingStrategy::kBestEffortFifo) {
      return UINT32_MAX;
    }
    const std::vector<uint32_t>& queue = queues_.queue(team);
    const std::span<const uint32_t> behind = queues_.after_head(team);
    const auto begin = static_cast<size_t>(behind.data() - queue.data());
    const size_t end = begin + std::min(behind.size(), kLookahead);
    size_t& until = scanned_until_[team.value()];
    const bool still_borrowing = until > begin && usage_not_below_seen(team);
    remember_usage(team);
    for (size_t k = still_borrowing ? std::min(until, end) : begin; k < end; ++k) {
      const PendingFacts& f = facts_[queue[k]];
      if (f.usable && !quota_.would_borrow(team, f.first_flavor, f.total)) {
        until = k;
        return queue[k];
      }
    }
    until = end;
    return UINT32_MAX;
  }

  [[nodiscard]] bool usage_not_below_seen(TeamIndex team) const {
    const int32_t frs = quota_.policy().fr_count();
    const int32_t node = quota_.policy().team(team).quota_node;
    const int64_t* seen = &usage_seen_[static_cast<size_t>(team.value()) * frs];
    for (int32_t fr = 0; fr < frs; ++fr) {
      if (quota_.usage(node, fr) < seen[fr]) return false;
    }
    return true;
  }

  void remember_usage(TeamIndex team) {
    const int32_t frs = quota_.policy().fr_count();
    const int32_t node = quota_.policy().team(team).quota_node;
    int64_t* seen = &usage_seen_[static_cast<size_t>(team.value()) * frs];
    for (int32_t fr = 0; fr < frs; ++fr) seen[fr] = quota_.usage(node, fr);
  }

  // The max-heap's top (what std::pop_heap would take) becomes `entry`.
  void replace_top(const Entry& entry) {
    const size_t size = heap_.size();
    size_t at = 0;
    while (true) {
      const size_t left = 2 * at + 1;
      if (left >= size) break;
      size_t child = left;
      if (left + 1 < size && heap_[left] < heap_[left + 1]) child = left + 1;
      if (!(entry < heap_[child])) break;
      heap_[at] = heap_[child];
      at = child;
    }
    heap_[at] = entry;
  }

  QuotaTree& quota_;
  const TeamQueues& queues_;
  const std::vector<PendingFacts>& facts_;
  std::vector<uint32_t> version_;
  // By team, for first_within_nominal(): the queue entries from the head's
  // next up to this index (exclusive) would borrow at the usage kept in
  // usage_seen_ (by team, then flavor-resource).
  std::vector<size_t> scanned_until_;
  std::vector<int64_t> usage_seen_;
  std::vector<Entry> heap_;  // a max-heap by Entry::operator<: the top goes first
};

}  // namespace

std::unique_ptr<AdmissionOrder> make_classic_order(QuotaTree& quota, const TeamQueues& queues,
                                                   const std::vector<PendingFacts>& facts) {
  return std::make_unique<ClassicOrder>(quota, queues, facts);
}

}  // namespace allot
