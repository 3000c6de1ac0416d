#include "service/simulation/bounded_reclaim.h"

#include <algorithm>
#include <utility>

#include "base/check.h"
#include "service/simulation/guarantee_tracker.h"

namespace allot {
namespace {

// A running workload of a team above its nominal: what taking it frees.
struct Victim {
  size_t team = 0;
  int64_t amount = 0;                                // of the primary resource, all pods
  std::vector<std::pair<size_t, int64_t>> on_nodes;  // node, amount there
};

struct Pod {
  int64_t amount = 0;
  FlavorIndex flavor;
};

// Victims on one node, beyond this many, are not combined (a node of 8 GPUs
// holds at most 8 workloads that use some).
constexpr size_t kMaxVictimsPerNode = 12;

class BoundedReclaimSearch {
 public:
  BoundedReclaimSearch(const AfterPlan& after, std::vector<int64_t> room,
                       const PendingWorkload& workload, const std::vector<int64_t>& nominal,
                       const std::vector<GuaranteeNode>& nodes,
                       const std::vector<FlavorIndex>& flavors, Resource primary)
      : nodes_(nodes), flavors_(flavors), quota_free_(after.quota_free), free_(std::move(room)) {
    note_work(after, nominal, workload.team.value());
    for (const PodSetRequest& set : workload.pod_sets) {
      for (int32_t i = 0; i < set.count; ++i) {
        pods_.push_back({set.per_pod[primary], set.required_flavor});
        request_ += set.per_pod[primary];
      }
    }
    std::stable_sort(pods_.begin(), pods_.end(),
                     [](const Pod& a, const Pod& b) { return a.amount > b.amount; });
  }

  bool run() { return place(0, 0); }

 private:
  // Every workload's room off the nodes the owed workload may use; the
  // work of other teams above their nominal that a reclaim may take.
  void note_work(const AfterPlan& after, const std::vector<int64_t>& nominal, size_t owed_team) {
    on_node_.resize(free_.size());
    excess_.assign(after.usage.size(), 0);
    for (size_t t = 0; t < after.usage.size(); ++t) {
      excess_[t] = std::max<int64_t>(0, after.usage[t] - nominal[t]);
    }
    taken_sum_.assign(after.usage.size(), 0);
    taken_max_.assign(after.usage.size(), 0);
    for (const HeldWork& work : after.work) {
      Victim victim{work.team, work.amount, {}};
      for (const auto& [n, amount] : work.pods) {
        if (n >= free_.size() || free_[n] < 0) continue;  // a node the workload may not use
        free_[n] = std::max<int64_t>(0, free_[n] - amount);
        victim.on_nodes.emplace_back(n, amount);
      }
      if (!work.open || work.team == owed_team || excess_[work.team] == 0 ||
          victim.on_nodes.empty()) {
        continue;
      }
      const auto index = static_cast<uint32_t>(victims_.size());
      for (const auto& [n, amount] : victim.on_nodes) {
        if (on_node_[n].empty() || on_node_[n].back() != index) on_node_[n].push_back(index);
      }
      victims_.push_back(std::move(victim));
    }
    taken_.assign(victims_.size(), false);
  }

  [[nodiscard]] bool usable(size_t n, const Pod& pod) const {
    if (free_[n] < 0) return false;
    if (pod.flavor.valid()) return nodes_[n].flavor == pod.flavor;
    return std::find(flavors_.begin(), flavors_.end(), nodes_[n].flavor) != flavors_.end();
  }

  // Takes `victims` (not taken yet); false, and nothing taken, when a team's
  // bound would not hold.
  bool take(const std::vector<uint32_t>& victims) {
    for (uint32_t v : victims) {
      const Victim& victim = victims_[v];
      undo_.push_back({v, taken_max_[victim.team]});
      taken_[v] = true;
      taken_sum_[victim.team] += victim.amount;
      taken_max_[victim.team] = std::max(taken_max_[victim.team], victim.amount);
      taken_amount_ += victim.amount;
      for (const auto& [n, amount] : victim.on_nodes) free_[n] += amount;
    }
    const bool within = std::all_of(victims.begin(), victims.end(), [&](uint32_t v) {
      const size_t team = victims_[v].team;
      return taken_sum_[team] - taken_max_[team] < excess_[team];
    });
    if (!within) give_back(victims.size());
    return within;
  }

  void give_back(size_t count) {
    for (; count > 0; --count) {
      const auto [v, previous_max] = undo_.back();
      undo_.pop_back();
      const Victim& victim = victims_[v];
      taken_[v] = false;
      taken_sum_[victim.team] -= victim.amount;
      taken_max_[victim.team] = previous_max;
      taken_amount_ -= victim.amount;
      for (const auto& [n, amount] : victim.on_nodes) free_[n] -= amount;
    }
  }

  // Every pod placed: the quota must hold the request too.
  bool quota_holds() {
    std::vector<uint32_t> rest;
    for (uint32_t v = 0; v < victims_.size(); ++v) {
      if (!taken_[v]) rest.push_back(v);
    }
    std::stable_sort(rest.begin(), rest.end(), [&](uint32_t a, uint32_t b) {
      return victims_[a].amount > victims_[b].amount;
    });
    size_t extra = 0;
    for (uint32_t v : rest) {
      if (quota_free_ + taken_amount_ >= request_) break;
      if (take({v})) ++extra;
    }
    const bool holds = quota_free_ + taken_amount_ >= request_;
    give_back(extra);
    return holds;
  }

  bool place(size_t pod, size_t first_node) {
    if (pod == pods_.size()) return quota_holds();
    const bool same_as_before = pod > 0 && pods_[pod - 1].amount == pods_[pod].amount &&
                                pods_[pod - 1].flavor == pods_[pod].flavor;
    for (size_t n = same_as_before ? first_node : 0; n < nodes_.size(); ++n) {
      if (!usable(n, pods_[pod])) continue;
      if (++steps_ > kMaxBoundedReclaimSteps) return true;
      if (place_on(pod, n)) return true;
    }
    return false;
  }

  bool place_with_room(size_t pod, size_t n) {
    free_[n] -= pods_[pod].amount;
    const bool placed = place(pod + 1, n);
    free_[n] += pods_[pod].amount;
    return placed;
  }

  // Pod `pod` on node `n`, freeing room there with each irredundant set of
  // victims that does.
  bool place_on(size_t pod, size_t n) {
    const int64_t need = pods_[pod].amount - free_[n];
    if (need <= 0) return place_with_room(pod, n);
    std::vector<uint32_t> candidates;
    std::vector<int64_t> here;
    int64_t all_here = 0;
    for (uint32_t v : on_node_[n]) {
      if (taken_[v] || candidates.size() == kMaxVictimsPerNode) continue;
      int64_t amount = 0;
      for (const auto& [node, a] : victims_[v].on_nodes) amount += node == n ? a : 0;
      candidates.push_back(v);
      here.push_back(amount);
      all_here += amount;
    }
    if (all_here < need) return false;
    const uint32_t subsets = 1U << candidates.size();
    for (uint32_t mask = 1; mask < subsets; ++mask) {
      int64_t freed = 0;
      int64_t smallest = INT64_MAX;
      std::vector<uint32_t> chosen;
      for (size_t i = 0; i < candidates.size(); ++i) {
        if ((mask >> i & 1U) == 0) continue;
        freed += here[i];
        smallest = std::min(smallest, here[i]);
        chosen.push_back(candidates[i]);
      }
      // Enough, and none of them spare (without the smallest it is not enough).
      if (freed < need || freed - smallest >= need) continue;
      if (++steps_ > kMaxBoundedReclaimSteps) return true;
      if (!take(chosen)) continue;
      const bool placed = place_with_room(pod, n);
      give_back(chosen.size());
      if (placed) return true;
    }
    return false;
  }

  const std::vector<GuaranteeNode>& nodes_;
  const std::vector<FlavorIndex>& flavors_;
  int64_t quota_free_ = 0;
  int64_t request_ = 0;
  std::vector<Pod> pods_;
  std::vector<int64_t> free_;  // per node; -1: not schedulable
  std::vector<Victim> victims_;
  std::vector<std::vector<uint32_t>> on_node_;      // per node, victims with pods there
  std::vector<int64_t> excess_;                     // per team: GPUs above its nominal
  std::vector<int64_t> taken_sum_;                  // per team
  std::vector<int64_t> taken_max_;                  // per team
  std::vector<bool> taken_;                         // per victim
  std::vector<std::pair<uint32_t, int64_t>> undo_;  // victim, its team's max before
  int64_t taken_amount_ = 0;
  int64_t steps_ = 0;
};

}  // namespace

bool fits_by_bounded_reclaim(const AfterPlan& after, std::vector<int64_t> room,
                             const PendingWorkload& workload, const std::vector<int64_t>& nominal,
                             const std::vector<GuaranteeNode>& nodes,
                             const std::vector<FlavorIndex>& flavors, Resource primary) {
  ALLOT_CHECK(after.usage.size() == nominal.size());
  BoundedReclaimSearch search(after, std::move(room), workload, nominal, nodes, flavors, primary);
  return search.run();
}

}  // namespace allot
