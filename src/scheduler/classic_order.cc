#include <algorithm>
#include <tuple>
#include <vector>

#include "scheduler/admission_order.h"

namespace allot {
namespace {

class ClassicOrder final : public AdmissionOrder {
 public:
  ClassicOrder(QuotaTree& quota, const TeamQueues& queues,
               const std::vector<PendingWorkload>& pending, const std::vector<PendingFacts>& facts)
      : quota_(quota),
        queues_(queues),
        pending_(pending),
        facts_(facts),
        version_(quota.policy().team_count(), 0) {
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
    const PendingWorkload& w = pending_[head];
    const PendingFacts& f = facts_[head];
    const bool borrows = quota_.would_borrow(team, f.first_flavor, f.total);
    const Entry entry{borrows, -w.priority, w.queued_at.ms(), w.id.value(), team, version};
    if (on_top) {
      replace_top(entry);
    } else {
      heap_.push_back(entry);
      std::push_heap(heap_.begin(), heap_.end());
    }
  }

 private:
  struct Entry {
    bool borrows;
    int32_t neg_priority;
    int64_t queued_ms;
    uint64_t id;
    TeamIndex team;
    uint32_t version;
    // A max-heap: "less" means "later".
    bool operator<(const Entry& o) const {
      return std::tie(borrows, neg_priority, queued_ms, id) >
             std::tie(o.borrows, o.neg_priority, o.queued_ms, o.id);
    }
  };

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
  const std::vector<PendingWorkload>& pending_;
  const std::vector<PendingFacts>& facts_;
  std::vector<uint32_t> version_;
  std::vector<Entry> heap_;  // a max-heap by Entry::operator<: the top goes first
};

}  // namespace

std::unique_ptr<AdmissionOrder> make_classic_order(QuotaTree& quota, const TeamQueues& queues,
                                                   const std::vector<PendingWorkload>& pending,
                                                   const std::vector<PendingFacts>& facts) {
  return std::make_unique<ClassicOrder>(quota, queues, pending, facts);
}

}  // namespace allot
