// VictimSelector: chooses a minimal set of running workloads to preempt so
// that a pending workload fits, as each team's preemption policy allows
// (DESIGN.md section 3, "Preemption").
//
// Candidates: other teams' borrowed work (reclaimWithinCohort while the
// preemptor stays within its nominal quota; borrowWithinCohort below a
// priority threshold while it borrows; the fair-share rule when fair sharing
// is on), then lower-priority work of its own team (withinTeam). Never a
// workload younger than its class's minRuntime, never one already stopping,
// never the workload that last preempted the preemptor (no loops). Preferred
// order: other teams first, lower priority, most recently started, least work
// lost since the last checkpoint. Candidates are removed in that order until
// the preemptor fits quota and nodes; then each one that turns out unneeded
// is put back (the set is minimal: no victim can be spared).
//
// Contract: find() leaves the QuotaTree and CapacityIndex as it found them.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "scheduler/capacity_index.h"
#include "scheduler/gang_placer.h"
#include "scheduler/plan.h"
#include "scheduler/quota_tree.h"

namespace allot {

struct VictimChoice {
  PreemptionVerdict verdict = PreemptionVerdict::kNoCandidates;
  std::vector<std::pair<uint32_t, PreemptionReason>> victims;  // index into admitted
};

class VictimSelector {
 public:
  // `unavailable[i]` marks admitted workloads that may not be chosen
  // (already stopping, or chosen earlier this cycle).
  VictimSelector(QuotaTree& quota, CapacityIndex& capacity,
                 const std::vector<AdmittedWorkload>& admitted,
                 const std::vector<bool>& unavailable, Timestamp now);

  [[nodiscard]] VictimChoice find(const PendingWorkload& preemptor, FlavorIndex flavor,
                                  const ResourceVector& total, std::span<const int32_t> counts);
  // Gives back the quota and node capacity of an admitted workload (a victim
  // that stops at once, having no grace period).
  void release(uint32_t index) { remove(index); }

 private:
  struct Candidate {
    uint32_t index;
    bool same_team;
  };
  std::vector<Candidate> collect(const PendingWorkload& preemptor, FlavorIndex flavor,
                                 bool* too_young, bool* any_allowed);
  // Whether removing candidate c is still justified given current usage.
  // Not const: records in share_refused_ when the fair-share rule says no.
  [[nodiscard]] bool still_eligible(const PendingWorkload& preemptor, FlavorIndex flavor,
                                    const ResourceVector& total, const Candidate& c);
  [[nodiscard]] PreemptionReason reason_for(const PendingWorkload& preemptor, FlavorIndex flavor,
                                            const ResourceVector& total, const Candidate& c) const;
  [[nodiscard]] bool fits(const PendingWorkload& preemptor, FlavorIndex flavor,
                          const ResourceVector& total, std::span<const int32_t> counts,
                          std::vector<NodeIndex>* used_nodes);
  void forget_shares_of(TeamIndex team);
  // What admitted workload `index` holds, computed once per selector.
  const ResourceVector& usage_of(uint32_t index);
  void remove(uint32_t index);
  void restore(uint32_t index);
  [[nodiscard]] int32_t root_of(int32_t quota_node) const;
  // Admitted workloads grouped by (root of the cohort tree, flavor), built on
  // first use: candidates never come from another tree or flavor.
  const std::vector<uint32_t>& group(int32_t root, FlavorIndex flavor);

  QuotaTree& quota_;
  CapacityIndex& capacity_;
  const std::vector<AdmittedWorkload>& admitted_;
  const std::vector<bool>& unavailable_;
  Timestamp now_;
  bool grouped_ = false;
  std::unordered_map<uint64_t, std::vector<uint32_t>> groups_;
  std::unordered_set<uint64_t> sorted_groups_;
  // Per collect(): whether each team borrows now (-1: not known yet).
  std::vector<int8_t> borrowing_cache_;
  // Set in find() when the fair-share rule turned a candidate down.
  bool share_refused_ = false;
  // By admitted index: what each workload holds, filled on first use.
  std::vector<ResourceVector> usage_;
  // Per find(): fair-share figures, recomputed when a team's usage moves.
  TeamIndex preemptor_team_;
  double preemptor_share_ = 0;
  std::vector<double> team_share_now_;
  std::vector<uint32_t> empty_group_;
};

}  // namespace allot
