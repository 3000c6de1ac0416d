#include <queue>
#include <tuple>

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
      const Entry top = heap_.top();
      if (top.version == version_[top.team.value()]) return top.team;
      heap_.pop();
    }
    return TeamIndex::invalid();
  }

  void refresh(TeamIndex team) override {
    const uint32_t version = ++version_[team.value()];
    if (!queues_.has_head(team)) return;
    const uint32_t head = queues_.head(team);
    const PendingWorkload& w = pending_[head];
    const PendingFacts& f = facts_[head];
    const bool borrows = quota_.would_borrow(team, f.first_flavor, f.total);
    heap_.push({borrows, -w.priority, w.queued_at.ms(), w.id.value(), team, version});
  }

 private:
  struct Entry {
    bool borrows;
    int32_t neg_priority;
    int64_t queued_ms;
    uint64_t id;
    TeamIndex team;
    uint32_t version;
    // std::priority_queue is a max-heap: "less" means "later".
    bool operator<(const Entry& o) const {
      return std::tie(borrows, neg_priority, queued_ms, id) >
             std::tie(o.borrows, o.neg_priority, o.queued_ms, o.id);
    }
  };

  QuotaTree& quota_;
  const TeamQueues& queues_;
  const std::vector<PendingWorkload>& pending_;
  const std::vector<PendingFacts>& facts_;
  std::vector<uint32_t> version_;
  std::priority_queue<Entry> heap_;
};

}  // namespace

std::unique_ptr<AdmissionOrder> make_classic_order(QuotaTree& quota, const TeamQueues& queues,
                                                   const std::vector<PendingWorkload>& pending,
                                                   const std::vector<PendingFacts>& facts) {
  return std::make_unique<ClassicOrder>(quota, queues, pending, facts);
}

}  // namespace allot
