#include <optional>
#include <set>
#include <tuple>

#include "scheduler/admission_order.h"
#include "scheduler/fair_share.h"

namespace allot {
namespace {

// Keeps, for every cohort, its children ordered by weighted share after
// admitting their candidate; a change in one team only re-sorts its path.
class FairShareOrder final : public AdmissionOrder {
 public:
  FairShareOrder(QuotaTree& quota, const TeamQueues& queues, const std::vector<PendingFacts>& facts)
      : quota_(quota),
        queues_(queues),
        facts_(facts),
        policy_(quota.policy()),
        children_(policy_.quota_node_count()),
        entry_(policy_.quota_node_count()),
        representative_(policy_.quota_node_count()) {
    for (int32_t t = 0; t < policy_.team_count(); ++t) refresh(TeamIndex(t));
  }

  TeamIndex next() override {
    if (roots_.empty()) return TeamIndex::invalid();
    return representative_[roots_.begin()->node];
  }

  void refresh(TeamIndex team) override {
    int32_t node = policy_.team(team).quota_node;
    while (true) {
      representative_[node] = compute_representative(node, team);
      const int32_t parent = policy_.parent(node);
      auto& siblings = parent == kNoParent ? roots_ : children_[parent];
      if (entry_[node]) siblings.erase(*entry_[node]);
      entry_[node].reset();
      if (representative_[node].valid()) {
        entry_[node] = make_entry(node, representative_[node]);
        siblings.insert(*entry_[node]);
      }
      if (parent == kNoParent) break;
      node = parent;
    }
  }

 private:
  struct Entry {
    double share;
    int32_t neg_priority;
    int64_t queued_ms;
    uint64_t id;
    int32_t node;
    bool operator<(const Entry& o) const {
      return std::tie(share, neg_priority, queued_ms, id, node) <
             std::tie(o.share, o.neg_priority, o.queued_ms, o.id, o.node);
    }
  };

  TeamIndex compute_representative(int32_t node, TeamIndex team) const {
    if (policy_.is_team(node)) return queues_.has_head(team) ? team : TeamIndex::invalid();
    const auto& kids = children_[node];
    return kids.empty() ? TeamIndex::invalid() : representative_[kids.begin()->node];
  }

  Entry make_entry(int32_t node, TeamIndex rep) {
    const uint32_t head = queues_.head(rep);
    const PendingFacts& f = facts_[head];
    const double share = weighted_share_after(quota_, node, rep, f.first_flavor, f.total);
    return {share, -f.priority, f.queued_at.ms(), f.id.value(), node};
  }

  QuotaTree& quota_;
  const TeamQueues& queues_;
  const std::vector<PendingFacts>& facts_;
  const CompiledPolicy& policy_;
  std::vector<std::set<Entry>> children_;
  std::vector<std::optional<Entry>> entry_;
  std::vector<TeamIndex> representative_;
  std::set<Entry> roots_;
};

}  // namespace

std::unique_ptr<AdmissionOrder> make_fair_share_order(QuotaTree& quota, const TeamQueues& queues,
                                                      const std::vector<PendingFacts>& facts) {
  return std::make_unique<FairShareOrder>(quota, queues, facts);
}

}  // namespace allot
