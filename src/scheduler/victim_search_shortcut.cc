// VictimSelector: searches known to fail before their candidates are walked
// (victim_selector.h, "Searches known to fail"). Each rule below holds only
// where the full search provably takes no candidate; the search then needs
// only to know whether a candidate that settles its verdict exists.
#include <algorithm>

#include "scheduler/fair_share.h"
#include "scheduler/victim_selector.h"

namespace allot {

VictimSelector::Shortcut VictimSelector::known_to_fail(const Request& r) {
  if (r.preemptor.guaranteed()) return Shortcut::kNone;
  const TeamPreemption& rules = quota_.policy().team(r.preemptor.team).preemption;
  // Own-team work could be taken (and would change the preemptor's own usage).
  if (rules.within_team != WithinTeamPolicy::kNever) return Shortcut::kNone;
  if (rules.reclaim_within_cohort == ReclaimPolicy::kNever) return Shortcut::kNone;
  if (quota_.policy().fair_sharing()) {
    return fair_share_known_to_fail(r) ? Shortcut::kFairShareRefused : Shortcut::kNone;
  }
  return classic_known_to_fail(r) ? Shortcut::kClassicInsufficient : Shortcut::kNone;
}

// Every candidate is then another team's work taken only on condition that the
// preemptor ends within its nominal (Variant::kWithoutBorrowing): the pass that
// allows borrowing skips them all, and the one that does not never fits, since
// removing other teams' work leaves the preemptor's own usage as it is. Either
// find_classic() runs only the pass that allows borrowing (the preemptor is not
// under its nominal), or both, the other failing on would_borrow().
bool VictimSelector::classic_known_to_fail(const Request& r) const {
  const TeamPreemption& rules = quota_.policy().team(r.preemptor.team).preemption;
  if (rules.borrow_within_cohort != BorrowWithinCohortPolicy::kNever) return false;
  if (r.reclaim.any_advantage()) return false;
  return !r.reclaim.preemptor_under_nominal() ||
         quota_.would_borrow(r.preemptor.team, r.flavor, r.total);
}

// In a flat tree every candidate's lowest common cohort with the preemptor is
// the root, so take_by_share() compares the preemptor's share after admission
// with the target team's share after one removal, which is at most its share
// now (removing work never raises a share). Above every other team's share,
// the preemptor is refused every candidate; a candidate of a team whose share
// is positive is then examined (and refused), which makes the verdict
// kFairShareRefused. Without such a candidate the full search runs.
bool VictimSelector::fair_share_known_to_fail(const Request& r) {
  const CompiledPolicy& policy = quota_.policy();
  const int32_t preemptor_node = policy.team(r.preemptor.team).quota_node;
  const int32_t root = policy.parent(preemptor_node);
  if (root == kNoParent || policy.parent(root) != kNoParent || !flat_tree(root)) return false;
  // A preemptor that claims only its nominal takes whatever the shares.
  if (r.reclaim.request_within_nominal()) return false;
  const double preemptor_share =
      weighted_share_after(quota_, preemptor_node, r.preemptor.team, r.flavor, r.total);
  for (int32_t node = 0; node < policy.team_count(); ++node) {
    if (node == preemptor_node || policy.parent(node) != root) continue;
    if (!(weighted_share(quota_, node) < preemptor_share)) return false;
  }
  positive_share_.assign(policy.team_count(), -1);
  return true;
}

bool VictimSelector::flat_tree(int32_t root) {
  const CompiledPolicy& policy = quota_.policy();
  if (flat_root_.empty()) flat_root_.assign(policy.quota_node_count(), -1);
  int8_t& known = flat_root_[root];
  if (known < 0) {
    known = 1;
    for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
      if (node == root || root_of(node) != root) continue;
      if (!policy.is_team(node) || policy.parent(node) != root) known = 0;
    }
  }
  return known == 1;
}

bool VictimSelector::positive_share(TeamIndex team) {
  int8_t& known = positive_share_[team.value()];
  if (known < 0) {
    known = weighted_share(quota_, quota_.policy().team(team).quota_node) > 0.0 ? 1 : 0;
  }
  return known == 1;
}

}  // namespace allot
