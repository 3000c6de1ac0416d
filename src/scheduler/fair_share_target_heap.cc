// VictimSelector under fair sharing, the fast path of the target choice:
// each cohort's children kept in a max-heap for the whole search, instead of
// a walk over every child of every level per victim round
// (next_fair_share_target(), the plain path).
//
// The heap's order is the walk's choice written as one key: the highest
// share; on equal shares a cohort before a team (the walk descends into the
// best cohort when its share is at least the best team's), a cohort listed
// later before one listed earlier (the walk keeps the last of equal cohorts),
// and a team whose next candidate comes first in preference before another.
// A round moves only the usage of the team it took from (and so the shares
// of that team and its cohorts, the children chosen on the way down) and
// that team's next candidate: after the round, refresh_target_path() puts
// each of those children, still the top of its parent's heap, in its new
// place. A child that can no longer be chosen (a team
// without candidates or, unless it is the preemptor's, without a positive
// share; a cohort without a positive share off the preemptor's path) is
// pruned when it reaches the top, rather than at every visit as the walk
// does: the same children, since during one search shares only fall
// (removals only) and cursors only move on. Answers equal the plain path's
// (pinned by VictimSelectorProperties.FairShareHeapsAnswerAsTheWalk).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "scheduler/victim_selector.h"

namespace allot {

VictimSelector::ChildEntry VictimSelector::child_entry(const Request& r, int32_t child) {
  ChildEntry entry;
  entry.node = child;
  entry.share = current_share(r, child);
  if (!quota_.policy().is_team(child)) {
    entry.cohort = 1;
    entry.tie = list_position_[child];
    return entry;
  }
  const std::vector<uint32_t>& work = team_candidates_[child];
  const size_t head = team_cursor_[child];
  entry.tie = head < work.size() ? -static_cast<int64_t>(candidate_rank_[work[head]])
                                 : std::numeric_limits<int64_t>::min();
  return entry;
}

// The walk's test for a child it may choose (next_fair_share_target()).
bool VictimSelector::child_open(const Request& r, const ChildEntry& entry) {
  if (entry.cohort != 0) return entry.share > 0 || r.reclaim.on_preemptor_path(entry.node);
  return team_cursor_[entry.node] < team_candidates_[entry.node].size() &&
         (entry.share > 0 || TeamIndex(entry.node) == r.preemptor.team);
}

int32_t VictimSelector::next_fair_share_target_by_heap(const Request& r, int32_t cohort) {
  std::vector<ChildEntry>& heap = child_heaps_[cohort];
  if (heap_built_[cohort] == 0) {
    heap_built_[cohort] = 1;
    const std::vector<int32_t>& children = live_children_[cohort];
    for (uint32_t k = 0; k < children.size(); ++k) {
      list_position_[children[k]] = k;
      if (!pruned_[children[k]]) heap.push_back(child_entry(r, children[k]));
    }
    std::make_heap(heap.begin(), heap.end());
  }
  while (!heap.empty()) {
    const ChildEntry& top = heap.front();
    if (!pruned_[top.node] && child_open(r, top)) {
      target_path_.push_back(top.node);
      return top.cohort != 0 ? next_fair_share_target_by_heap(r, top.node) : top.node;
    }
    pruned_[top.node] = true;
    std::pop_heap(heap.begin(), heap.end());
    heap.pop_back();
  }
  pruned_[cohort] = true;
  return -1;
}

// Each child on the path is still the top of its parent's heap (nothing else
// there moved): its new entry takes the top's place and sinks.
void VictimSelector::refresh_target_path(const Request& r) {
  const CompiledPolicy& policy = quota_.policy();
  for (const int32_t node : target_path_) {
    std::vector<ChildEntry>& heap = child_heaps_[policy.parent(node)];
    const ChildEntry entry = child_entry(r, node);
    const size_t size = heap.size();
    size_t at = 0;
    while (true) {
      const size_t left = 2 * at + 1;
      if (left >= size) break;
      size_t child = left;
      if (left + 1 < size && heap[left] < heap[left + 1]) child = left + 1;
      if (!(entry < heap[child])) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = entry;
  }
}

void VictimSelector::clear_child_heaps(const std::vector<int32_t>& cohorts) {
  for (const int32_t cohort : cohorts) {
    child_heaps_[cohort].clear();
    heap_built_[cohort] = 0;
  }
  target_path_.clear();
}

}  // namespace allot
