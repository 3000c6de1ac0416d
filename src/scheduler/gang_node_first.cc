// VictimSelector: the node-first retry for a gang of several pods
// (victim_selector.h, "Node-first walks"). The classic greedy walk takes
// victims in preference order across the whole cluster and stops taking a
// team's work once the team is back within its quota; for a gang that needs
// several whole nodes the GPUs it frees are then scattered over many nodes,
// none of them empty enough. This walk clears nodes instead: the nodes where
// the free GPUs plus those the candidates hold there could hold one of the
// gang's largest pods, most room first, a few more than the gang has pods;
// their candidates are taken node by node (each in candidate order) until
// the gang fits, then minimised as usual.
#include <algorithm>
#include <utility>
#include <vector>

#include "scheduler/victim_selector.h"

namespace allot {

bool VictimSelector::gang_node_first_pass(const Request& r,
                                          const std::vector<Candidate>& candidates,
                                          bool allow_borrowing, VictimChoice* choice) {
  constexpr size_t kSpareNodes = 3;
  int64_t largest_pod = 0;
  size_t pods = 0;
  for (size_t s = 0; s < r.preemptor.pod_sets.size(); ++s) {
    const int64_t gpus = r.preemptor.pod_sets[s].per_pod[Resource::kGpu];
    largest_pod = std::max(largest_pod, gpus);
    if (gpus > 0) pods += static_cast<size_t>(r.counts[s]);
  }
  if (largest_pod == 0 || pods < 2) return false;
  // GPUs the candidates hold, summed by node (a candidate on several nodes counts on each).
  if (freeable_gpus_.empty()) freeable_gpus_.assign(quota_.policy().node_count(), -1);
  std::vector<NodeIndex> touched;
  for (const Candidate& c : candidates) {
    const Held& h = held(c.index);
    for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
      const HeldPod& pod = held_pods_[p];
      int64_t& gpus = freeable_gpus_[pod.node.value()];
      if (gpus < 0) {
        gpus = 0;
        touched.push_back(pod.node);
      }
      gpus += pod.per_pod[Resource::kGpu];
    }
  }
  const std::vector<std::pair<NodeIndex, int64_t>> nodes =
      nodes_by_room(touched, largest_pod, pods + kSpareNodes);
  if (nodes.empty()) return false;
  // Each candidate goes with the first chosen node it runs on; the chosen
  // nodes' candidates are walked node by node, each node's in candidate order.
  std::vector<std::vector<Candidate>> by_node(nodes.size());
  for (const Candidate& c : candidates) {
    const Held& h = held(c.index);
    size_t best = nodes.size();
    for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
      for (size_t k = 0; k < best; ++k) {
        if (nodes[k].first == held_pods_[p].node) best = k;
      }
    }
    if (best < nodes.size()) by_node[best].push_back(c);
  }
  std::vector<Candidate> order;
  for (const std::vector<Candidate>& node_candidates : by_node) {
    order.insert(order.end(), node_candidates.begin(), node_candidates.end());
  }

  if (!greedy_pass(r, order, allow_borrowing, choice)) return false;
  ++gang_walks_won_;
  return true;
}

}  // namespace allot
