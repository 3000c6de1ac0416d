// CohortReclaim: where a preemptor stands in the cohort tree relative to the
// teams it might take capacity back from (DESIGN.md section 3,
// "Preemption"; the semantics of Kueue's hierarchical reclaim).
//
// A team has a *hierarchical advantage* over another team's work when the
// preemptor's request fits in the quota of a subtree that contains the
// preemptor but not the other team: its own nominal, else the subtree quota of
// one of its cohorts (the cohort's own pool plus what its members lend), the
// lowest such cohort first. Such work may be reclaimed whatever its priority
// (within the team's reclaimWithinCohort policy) and even while the preemptor
// borrows. A cross-team candidate stays a candidate only while its team and
// every cohort between it and the lowest common ancestor of both teams use
// more than their quota of some contested resource.
//
// Contract: a view of a QuotaTree built for one preemptor, team and flavor;
// it reads the tree's usage when asked, so answers follow removals made
// meanwhile. Not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/quantity.h"
#include "scheduler/quota_tree.h"

namespace allot {

// The flavor-resources a preemption is for: the governed ones the request does
// not fit; when it fits them all (the shortage is of nodes, not quota), every
// governed one that it asks for.
std::vector<int32_t> contested_resources(const QuotaTree& tree, TeamIndex team, FlavorIndex flavor,
                                         const ResourceVector& request);

// True when `quota_node` uses more than its (subtree) quota of some fr in `frs`.
bool above_quota(const QuotaTree& tree, int32_t quota_node, std::span<const int32_t> frs);

class CohortReclaim {
 public:
  // How another team relates to the preemptor.
  struct Relation {
    int32_t lca = -1;        // the lowest cohort holding both teams (-1: none, other tree)
    bool advantage = false;  // the preemptor fits a subtree below lca that holds it
  };

  // REQUIRES: `tree` outlives this object. `kept_judgements` off, every
  // above-quota test reads the usage (the plain path, for tests); on, it is
  // read from the tree's over_quota() where the tree keeps it.
  CohortReclaim(const QuotaTree& tree, TeamIndex preemptor, FlavorIndex flavor,
                const ResourceVector& request, std::vector<int32_t> contested,
                bool kept_judgements = true);

  [[nodiscard]] Relation relation_to(TeamIndex other) const;
  // The same for the work met at `quota_node` or above it (relation_to(other)
  // is this for other's own quota node).
  [[nodiscard]] Relation relation_from(int32_t quota_node) const;
  // Kueue's candidateIsValid for another team's work, with usage as it is now.
  [[nodiscard]] bool still_above_quota(TeamIndex other, int32_t lca) const {
    return still_above_quota_from(tree_.policy().team(other).quota_node, lca);
  }
  // The same for work of the team at `quota_node`.
  [[nodiscard]] bool still_above_quota_from(int32_t quota_node, int32_t lca) const;
  // above_quota(tree, quota_node, contested()), with usage as it is now.
  [[nodiscard]] bool above_quota(int32_t quota_node) const {
    return contested_frs_ != 0 ? (tree_.over_quota(quota_node) & contested_frs_) != 0
                               : allot::above_quota(tree_, quota_node, contested_);
  }
  // The child of `lca` on the way from `quota_node` up to it ("almost LCA").
  [[nodiscard]] int32_t child_of_lca(int32_t quota_node, int32_t lca) const;
  // True when quota_node is the preemptor's team or one of its cohorts.
  [[nodiscard]] bool on_preemptor_path(int32_t quota_node) const;
  [[nodiscard]] const std::vector<int32_t>& contested() const { return contested_; }
  // True when the preemptor's team uses less than its nominal of every contested fr.
  [[nodiscard]] bool preemptor_under_nominal() const;
  // True when the preemptor's team stays within its nominal of every contested
  // fr once the request is added (it claims only its own guarantee).
  [[nodiscard]] bool request_within_nominal() const { return request_within_nominal_; }
  // True when the preemptor has a hierarchical advantage over the work of some
  // other team (relation_to() answers advantage for some team).
  [[nodiscard]] bool any_advantage() const;

 private:
  const QuotaTree& tree_;
  int32_t team_node_;
  std::vector<int32_t> contested_;
  // contested_ as bits (bit fr) when above_quota() reads the tree's
  // over_quota(); 0: it reads the usage.
  uint64_t contested_frs_ = 0;
  bool request_within_nominal_ = true;
  std::vector<int32_t> path_;        // the preemptor's team, then its cohorts up to the root
  std::vector<bool> advantage_;      // by path index: advantage over work first met there
  std::vector<int32_t> path_index_;  // by quota node: index in path_, or -1
};

}  // namespace allot
