// VictimSelector: the node-clearing search, the classic search's last pass
// (victim_selector.h, "Node-first walks"). The earlier walks look at a few
// nodes only (those with the most room); when each of them holds some work
// that the reclaim may not take (its team would fall within its quota before
// the node had room), the preemptor was left waiting although other nodes
// could be cleared. This search looks at every node where the candidates could
// make room for one of the preemptor's largest pods, most room first (ties
// to the lowest node). Clearing a node takes its candidates, in candidate
// order, until it has room for such a pod, each only if all the victims so
// far can be taken in some order in which each is open when taken (Kueue's
// bound: another team's work only while the team still uses more than its
// quota); a node that does not get there gets its victims back. The order
// tried puts a team's smallest work first: Kueue's walk, in its own order, may
// take a team's large job first and leave it within its quota before a small
// one that would have cleared another node; taking the large one last frees
// the same GPUs within the same bound. The nodes that can be cleared alone (the
// first 16 by room) are then combined, one node per pod at most, those whose
// victims hold the fewest GPUs first, with backtracking (512 clearings at
// most): the teams' bounds are shared, so clearing one node may leave too
// little to clear another. The first combination the preemptor fits is
// minimised as usual.
#include <algorithm>
#include <utility>
#include <vector>

#include "scheduler/victim_selector.h"

namespace allot {
namespace {

// The nodes walked: the first this many (most room first) that can be
// cleared alone; and how many node clearings one search tries at most.
constexpr size_t kMaxClearableNodes = 16;
constexpr int64_t kMaxClearingTrials = 512;

}  // namespace

// One node-clearing search: the nodes by room, each node's candidates, the
// nodes that can be cleared alone (indices into nodes), and the victims kept
// so far, in an order in which each was open when taken (the quota and
// nodes are as if they were gone).
struct VictimSelector::ClearingWalk {
  const std::vector<std::pair<NodeIndex, int64_t>>& nodes;
  std::vector<std::vector<Candidate>> by_node;
  std::vector<size_t> clearable;
  const PodSetRequest* largest = nullptr;
  std::vector<Candidate> kept;
  std::vector<uint8_t> taken;  // by admitted index: in kept
  bool allow_borrowing = false;
  size_t max_depth = 0;  // nodes cleared at most: the preemptor's pods
  int64_t trials = 0;
};

bool VictimSelector::node_clearing_pass(const Request& r, const std::vector<Candidate>& candidates,
                                        bool allow_borrowing, VictimChoice* choice) {
  const PodSetRequest* largest = nullptr;
  for (const PodSetRequest& set : r.preemptor.pod_sets) {
    if (largest == nullptr || set.per_pod[Resource::kGpu] > largest->per_pod[Resource::kGpu]) {
      largest = &set;
    }
  }
  if (largest == nullptr || largest->per_pod[Resource::kGpu] == 0) return false;
  // GPUs the candidates hold, by node (a candidate on several nodes counts on each).
  if (freeable_gpus_.empty()) freeable_gpus_.assign(quota_.policy().node_count(), -1);
  std::vector<NodeIndex> touched;
  for (const Candidate& c : candidates) {
    const Held& h = held(c.index);
    for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
      int64_t& gpus = freeable_gpus_[held_pods_[p].node.value()];
      if (gpus < 0) {
        gpus = 0;
        touched.push_back(held_pods_[p].node);
      }
      gpus += held_pods_[p].per_pod[Resource::kGpu];
    }
  }
  const std::vector<std::pair<NodeIndex, int64_t>> nodes =
      nodes_by_room(touched, largest->per_pod[Resource::kGpu], touched.size());
  if (nodes.empty()) return false;
  // Each node's candidates, in candidate order (a candidate on several nodes is in each list).
  std::vector<size_t> rank(quota_.policy().node_count(), SIZE_MAX);
  for (size_t k = 0; k < nodes.size(); ++k) rank[nodes[k].first.value()] = k;
  std::vector<std::vector<Candidate>> by_node(nodes.size());
  for (const Candidate& c : candidates) {
    const Held& h = held(c.index);
    for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
      const size_t k = rank[held_pods_[p].node.value()];
      if (k != SIZE_MAX && (by_node[k].empty() || by_node[k].back().index != c.index)) {
        by_node[k].push_back(c);
      }
    }
  }

  ClearingWalk walk{nodes, std::move(by_node), {}, largest, {}, {}, allow_borrowing, 0, 0};
  walk.taken.assign(admitted_.size(), 0);
  for (const PodSetRequest& set : r.preemptor.pod_sets) {
    if (set.per_pod[Resource::kGpu] > 0) walk.max_depth += static_cast<size_t>(set.count);
  }
  // The nodes that can be cleared alone, with nothing else taken, those whose
  // victims hold the fewest GPUs first (ties to the one with most room).
  std::vector<std::pair<int64_t, size_t>> alone;  // victims' GPUs, node
  for (size_t k = 0; k < nodes.size() && alone.size() < kMaxClearableNodes; ++k) {
    if (!clear_node(r, walk, k)) continue;
    if (walk.kept.empty()) continue;  // it has room already: nothing to clear
    int64_t gpus = 0;
    for (const Candidate& c : walk.kept) gpus += usage_of(c.index)[Resource::kGpu];
    alone.emplace_back(gpus, k);
    back_to(walk, {});
  }
  std::stable_sort(alone.begin(), alone.end());
  for (const auto& [gpus, k] : alone) walk.clearable.push_back(k);
  if (!clear_from(r, walk, 0, 0)) return false;
  choice->victims.clear();
  removed_.clear();
  for (const Candidate& c : walk.kept) {
    removed_.push_back(c.index);
    choice->victims.emplace_back(c.index, reason_for(c));
  }
  minimize(r, allow_borrowing, choice);
  ++node_clearing_wins_;
  return true;
}

// Takes node k's candidates not taken yet, in candidate order, until it has
// room for one of the preemptor's largest pods. False, and nothing more
// taken, when it cannot get there.
bool VictimSelector::clear_node(const Request& r, ClearingWalk& walk, size_t k) {
  const NodeIndex node = walk.nodes[k].first;
  const std::vector<Candidate> before = walk.kept;
  for (const Candidate& c : walk.by_node[k]) {
    if (capacity_.fits(node, walk.largest->per_pod)) break;
    if (walk.taken[c.index] == 0 && add_victim(r, c, walk.allow_borrowing, &walk.kept)) {
      walk.taken[c.index] = 1;
    }
  }
  if (capacity_.fits(node, walk.largest->per_pod)) return true;
  back_to(walk, before);
  return false;
}

void VictimSelector::back_to(ClearingWalk& walk, const std::vector<Candidate>& before) {
  for (const Candidate& c : walk.kept) walk.taken[c.index] = 0;
  retake(walk.kept, before);
  walk.kept = before;
  for (const Candidate& c : walk.kept) walk.taken[c.index] = 1;
}

// Clears the clearable nodes from `from` on, one combination after another
// (at most one node per pod), until the preemptor fits.
bool VictimSelector::clear_from(const Request& r, ClearingWalk& walk, size_t from, size_t depth) {
  for (size_t i = from; i < walk.clearable.size(); ++i) {
    if (++walk.trials > kMaxClearingTrials) return false;
    const std::vector<Candidate> before = walk.kept;
    if (!clear_node(r, walk, walk.clearable[i])) continue;
    if (fits(r, walk.allow_borrowing)) return true;
    if (depth + 1 < walk.max_depth && clear_from(r, walk, i + 1, depth + 1)) return true;
    back_to(walk, before);
  }
  return false;
}

// Puts back `from` (latest first) and takes `to` in its order.
void VictimSelector::retake(const std::vector<Candidate>& from, const std::vector<Candidate>& to) {
  for (auto it = from.rbegin(); it != from.rend(); ++it) restore(it->index);
  for (const Candidate& c : to) remove(c.index);
}

// Adds `c` to the victims `kept` when some order of them all takes each while
// it is open: a team's work is taken smallest first (its largest last, when
// it may leave the team below its quota). On refusal, `kept` is as it was.
bool VictimSelector::add_victim(const Request& r, const Candidate& c, bool allow_borrowing,
                                std::vector<Candidate>* kept) {
  const int64_t gpus = usage_of(c.index)[Resource::kGpu];
  const bool largest_of_team = std::none_of(kept->begin(), kept->end(), [&](const Candidate& k) {
    return k.team == c.team && usage_of(k.index)[Resource::kGpu] > gpus;
  });
  if (largest_of_team) {
    if (!open_now(r, c, allow_borrowing)) return false;
    remove(c.index);
    kept->push_back(c);
    return true;
  }
  std::vector<Candidate> trial = *kept;
  trial.push_back(c);
  std::stable_sort(trial.begin(), trial.end(), [&](const Candidate& a, const Candidate& b) {
    return usage_of(a.index)[Resource::kGpu] < usage_of(b.index)[Resource::kGpu];
  });
  for (auto it = kept->rbegin(); it != kept->rend(); ++it) restore(it->index);
  for (size_t i = 0; i < trial.size(); ++i) {
    if (open_now(r, trial[i], allow_borrowing)) {
      remove(trial[i].index);
      continue;
    }
    for (size_t j = i; j-- > 0;) restore(trial[j].index);
    for (const Candidate& k : *kept) remove(k.index);
    return false;
  }
  *kept = std::move(trial);
  return true;
}

}  // namespace allot
