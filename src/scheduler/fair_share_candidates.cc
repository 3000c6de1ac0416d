// VictimSelector under fair sharing: the candidates of one search, collected
// team by team (the fast path; collect() followed by
// index_fair_share_candidates() is the plain one).
//
// Under fair sharing another team's work is a candidate only while its team
// is above its nominal (fair_share_team_open), so the walk reads the group's
// slots team by team and skips whole teams that are not, instead of every
// slot of the tree. Each candidate keeps its rank in the plain path's order
// (other teams' work in preference order, then the preemptor's own), so the
// teams are listed under their cohorts, and ties between teams broken, as
// there. Answers equal the plain path's (pinned by
// VictimSelectorProperties.FairShareFastPathAnswersAsThePlainPath).
#include <algorithm>
#include <utility>
#include <vector>

#include "scheduler/victim_selector.h"

namespace allot {

// Any team of the tree that uses more than its nominal of a contested
// resource may lose work under fair sharing; worked out once per search.
bool VictimSelector::fair_share_team_open(const Request& r, TeamIndex team) {
  int8_t& open = team_open_[team.value()];
  if (open < 0) {
    const int32_t node = team_nodes_[team.value()].node;
    const CohortReclaim::Relation relation = r.reclaim.relation_from(node);
    open = relation.lca >= 0 && r.reclaim.above_quota(node) ? 1 : 0;
    team_variant_[team.value()] = Variant::kFairShare;
    team_lca_[team.value()] = relation.lca;
  }
  return open == 1;
}

// What collect() asks of a slot of the preemptor's team (`own`) or of an
// open team, its age aside.
bool VictimSelector::fair_share_slot_open(const Request& r, const Slot& w, bool own, Candidate* c) {
  if (unavailable_[w.index] || w.id == r.preemptor.preempted_by) return false;
  if (own) return w.priority < r.preemptor.priority;
  return !w.guaranteed && cross_team_candidate(r, w, c);
}

VictimSelector::TeamSlots& VictimSelector::team_slots(const std::vector<Slot>& slots) {
  auto [it, fresh] = team_slots_.try_emplace(&slots);
  TeamSlots& by_team = it->second;
  if (!fresh) return by_team;
  // A counting sort by team keeps each team's slots in the group's order.
  std::vector<uint32_t> next(static_cast<size_t>(quota_.policy().team_count()), 0);
  for (const Slot& slot : slots) ++next[slot.team.value()];
  uint32_t offset = 0;
  for (size_t t = 0; t < next.size(); ++t) {
    const uint32_t count = next[t];
    if (count > 0) {
      by_team.teams.push_back(static_cast<int32_t>(t));
      by_team.begin.push_back(offset);
    }
    next[t] = offset;
    offset += count;
  }
  by_team.begin.push_back(offset);
  by_team.positions.resize(slots.size());
  for (uint32_t pos = 0; pos < slots.size(); ++pos) {
    by_team.positions[next[slots[pos].team.value()]++] = pos;
  }
  by_team.slots.reserve(slots.size());
  for (const uint32_t pos : by_team.positions) by_team.slots.push_back(slots[pos]);
  // What each holds is read only for candidates a search looks at: filled when first read.
  by_team.held.resize(slots.size());
  by_team.held_known.assign(slots.size(), 0);
  return by_team;
}

const ResourceVector& VictimSelector::candidate_usage(uint32_t pos,
                                                      const std::vector<Candidate>& candidates) {
  if (!fair_share_indexed_ || search_slots_ == nullptr) return usage_of(candidates[pos].index);
  TeamSlots& by_team = *search_slots_;
  const uint32_t i = candidate_slot_[pos];
  if (by_team.held_known[i] == 0) {
    by_team.held[i] = admitted_[by_team.slots[i].index].usage();
    by_team.held_known[i] = 1;
  }
  return by_team.held[i];
}

const ResourceVector& VictimSelector::least_from(TeamSlots& by_team, uint32_t slot) {
  if (by_team.least_from.empty()) {
    by_team.least_from.resize(by_team.slots.size());
    by_team.least_known.assign(by_team.teams.size(), 0);
  }
  // The listed team whose slots hold `slot`.
  const auto k =
      static_cast<size_t>(std::upper_bound(by_team.begin.begin(), by_team.begin.end(), slot) -
                          by_team.begin.begin() - 1);
  if (by_team.least_known[k] == 0) {
    by_team.least_known[k] = 1;
    ResourceVector least;
    for (uint32_t i = by_team.begin[k + 1]; i-- > by_team.begin[k];) {
      if (by_team.held_known[i] == 0) {
        by_team.held[i] = admitted_[by_team.slots[i].index].usage();
        by_team.held_known[i] = 1;
      }
      const ResourceVector& held = by_team.held[i];
      if (i + 1 == by_team.begin[k + 1]) least = held;
      for (const Resource r : kAllResources) least[r] = std::min(least[r], held[r]);
      by_team.least_from[i] = least;
    }
  }
  return by_team.least_from[slot];
}

std::vector<VictimSelector::Candidate> VictimSelector::collect_fair_share(
    const Request& r, bool* too_young, bool* any_allowed, Shortcut shortcut, bool* settled) {
  const CompiledPolicy& policy = quota_.policy();
  const PendingWorkload& preemptor = r.preemptor;
  const TeamPreemption& rules = policy.team(preemptor.team).preemption;
  const bool cross_team_allowed = rules.reclaim_within_cohort != ReclaimPolicy::kNever;
  const bool own_allowed = rules.within_team != WithinTeamPolicy::kNever;
  *any_allowed = cross_team_allowed || own_allowed;
  std::vector<Candidate> out;
  if (!*any_allowed) return out;
  team_open_.assign(policy.team_count(), -1);
  team_lca_.resize(policy.team_count());
  team_variant_.resize(policy.team_count());
  reset_fair_share_search();
  const std::vector<Slot>& slots = group(root_of(policy.team(preemptor.team).quota_node), r.flavor);
  TeamSlots& by_team = team_slots(slots);
  search_slots_ = &by_team;
  out.reserve(slots.size());  // grown once, not by doubling, over the thousands a search collects
  const auto own_offset = static_cast<uint32_t>(slots.size());  // own work ranks last
  // Team nodes holding candidates, with the rank of their first candidate.
  std::vector<std::pair<uint32_t, int32_t>> ranked_teams;
  for (size_t k = 0; k < by_team.teams.size(); ++k) {
    const TeamIndex team(static_cast<uint32_t>(by_team.teams[k]));
    const bool own = team == preemptor.team;
    if (own ? !own_allowed : (!cross_team_allowed || !fair_share_team_open(r, team))) continue;
    const int32_t team_node = team_nodes_[team.value()].node;
    std::vector<uint32_t>& work = team_candidates_[team_node];
    work.clear();
    for (uint32_t i = by_team.begin[k]; i < by_team.begin[k + 1]; ++i) {
      const uint32_t pos = by_team.positions[i];
      const Slot& w = by_team.slots[i];
      Candidate c{w.index, Variant::kWithinTeam, -1, w.team};
      if (!fair_share_slot_open(r, w, own, &c)) continue;
      if (now_ < w.ripe) {
        *too_young = true;
        continue;
      }
      // A search known to fail is settled by a candidate of a team whose share is positive.
      if (shortcut == Shortcut::kFairShareRefused && !own && positive_share(team)) {
        *settled = true;
        return out;
      }
      work.push_back(static_cast<uint32_t>(out.size()));
      candidate_rank_.push_back(own ? own_offset + pos : pos);
      candidate_slot_.push_back(i);
      out.push_back(c);
    }
    if (!work.empty()) ranked_teams.emplace_back(candidate_rank_[work.front()], team_node);
  }
  // In the order of their first candidates (ranks are distinct, so no ties), sorted on the
  // ranks at hand rather than read through each team's list at every comparison.
  std::sort(ranked_teams.begin(), ranked_teams.end());
  std::vector<int32_t> teams;
  teams.reserve(ranked_teams.size());
  for (const auto& [rank, team_node] : ranked_teams) teams.push_back(team_node);
  fair_share_touched_ = register_fair_share_teams(teams);
  fair_share_indexed_ = true;
  return out;
}

}  // namespace allot
