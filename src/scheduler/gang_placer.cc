#include "scheduler/gang_placer.h"

#include <algorithm>
#include <tuple>

namespace allot {
namespace {

// Orders candidate domains fullest first (fewest free GPUs, then CPU), then by number.
struct DomainCandidate {
  int64_t free_gpus;
  int64_t free_cpu;
  int32_t domain;
  bool operator<(const DomainCandidate& o) const {
    return std::tie(free_gpus, free_cpu, domain) < std::tie(o.free_gpus, o.free_cpu, o.domain);
  }
};

// Tries the domains fullest first and returns the first placement found.
// The order is taken from a heap one domain at a time: the first domain
// usually places, and sorting them all would cost more than trying it.
template <typename PlaceIn>
std::optional<std::vector<PodSetAssignment>> first_that_places(
    std::vector<DomainCandidate>& candidates, PlaceIn place_in) {
  const auto later = [](const DomainCandidate& a, const DomainCandidate& b) { return b < a; };
  std::make_heap(candidates.begin(), candidates.end(), later);
  while (!candidates.empty()) {
    std::pop_heap(candidates.begin(), candidates.end(), later);
    const int32_t domain = candidates.back().domain;
    candidates.pop_back();
    if (auto placed = place_in(domain)) return placed;
  }
  return std::nullopt;
}

ResourceVector total_request(const PlacementRequest& request, int32_t* pods) {
  ResourceVector total;
  *pods = 0;
  for (size_t i = 0; i < request.pod_sets.size(); ++i) {
    total += request.pod_sets[i].per_pod * request.counts[i];
    *pods += request.counts[i];
  }
  return total;
}

}  // namespace

// The cheap pre-check: each pod set's pods must fit the free GPU counts of
// the flavor's nodes, whatever the topology (a necessary condition only).
// Work without a declared end that holds no reservation may use no reserved
// node (CapacityIndex::usable_by): only the open nodes count for it.
bool GangPlacer::enough_gpu_slots(const PlacementRequest& request) const {
  const bool open_only = request.finish_by == Timestamp::infinite_future() &&
                         !capacity_->holds_reserved_nodes(request.workload);
  for (size_t i = 0; i < request.pod_sets.size(); ++i) {
    const int64_t gpus = request.pod_sets[i].per_pod.gpu();
    if (gpus > 0 && request.counts[i] > 0 &&
        !capacity_->has_gpu_pod_slots(request.flavor, gpus, request.counts[i], open_only)) {
      return false;
    }
  }
  return true;
}

std::optional<std::vector<PodSetAssignment>> GangPlacer::place(const PlacementRequest& request) {
  int32_t pods = 0;
  const ResourceVector total = total_request(request, &pods);
  if (!total.fits_in(capacity_->flavor_free(request.flavor))) return std::nullopt;
  if (!enough_gpu_slots(request)) return std::nullopt;
  if (pods <= 1) return place_anywhere(request);
  const Topology& topology = capacity_->topology();
  if (total.fits_in(topology.largest_rack(request.flavor))) {
    if (auto in_rack = place_in_racks(request, total)) return in_rack;
  }
  if (total.fits_in(topology.largest_block(request.flavor))) {
    if (auto in_block = place_in_blocks(request, total)) return in_block;
  }
  return place_anywhere(request);
}

std::optional<std::vector<PodSetAssignment>> GangPlacer::place_in_racks(
    const PlacementRequest& request, const ResourceVector& total) {
  const Topology& topology = capacity_->topology();
  std::vector<DomainCandidate> candidates;
  for (int32_t rack : topology.racks_of_flavor(request.flavor)) {
    const ResourceVector& free = capacity_->rack_free(rack);
    if (total.fits_in(free)) candidates.push_back({free.gpu(), free.cpu_millis(), rack});
  }
  return first_that_places(
      candidates, [&](int32_t rack) { return place_in(request, topology.nodes_of_rack(rack)); });
}

std::optional<std::vector<PodSetAssignment>> GangPlacer::place_in_blocks(
    const PlacementRequest& request, const ResourceVector& total) {
  const Topology& topology = capacity_->topology();
  std::vector<DomainCandidate> candidates;
  for (int32_t block : topology.blocks_of_flavor(request.flavor)) {
    const ResourceVector& free = capacity_->block_free(block);
    if (total.fits_in(free)) candidates.push_back({free.gpu(), free.cpu_millis(), block});
  }
  return first_that_places(
      candidates, [&](int32_t block) { return place_in(request, topology.nodes_of_block(block)); });
}

std::pair<int64_t, int64_t> GangPlacer::rank(const PlacementRequest& request,
                                             NodeIndex node) const {
  const int64_t free_gpus = capacity_->free(node).gpu();
  if (!packs(request)) return {0, free_gpus};
  const int64_t room =
      capacity_->topology().capacity_of(node).gpu() - tenancy_->anchored_gpus(node);
  return {room, free_gpus};
}

NodeIndex GangPlacer::best_in_domain(const PlacementRequest& request, const ResourceVector& per_pod,
                                     std::span<const NodeIndex> domain) const {
  NodeIndex best;
  std::pair<int64_t, int64_t> best_rank{INT64_MAX, INT64_MAX};
  for (NodeIndex node : domain) {
    if (!capacity_->fits(node, per_pod)) continue;
    if (!capacity_->usable_by(node, request.workload, request.finish_by)) continue;
    const std::pair<int64_t, int64_t> node_rank = rank(request, node);
    if (node_rank < best_rank) {
      best = node;
      best_rank = node_rank;
    }
  }
  return best;
}

NodeIndex GangPlacer::best_in_flavor(const PlacementRequest& request,
                                     const ResourceVector& per_pod) const {
  if (packs(request)) return packed_in_flavor(request, per_pod);
  const int32_t buckets = capacity_->bucket_count(request.flavor);
  for (int64_t gpus = per_pod.gpu(); gpus < buckets; ++gpus) {
    for (uint32_t raw = capacity_->next_in_bucket(request.flavor, gpus, 0); raw != UINT32_MAX;
         raw = capacity_->next_in_bucket(request.flavor, gpus, raw + 1)) {
      const NodeIndex node(raw);
      if (capacity_->fits(node, per_pod) &&
          capacity_->usable_by(node, request.workload, request.finish_by)) {
        return node;
      }
    }
  }
  return NodeIndex::invalid();
}

// Every node that holds the pod is ranked (buckets in order of free GPUs, each
// in node order, so the first of equal rank is the lowest node of the fewest free GPUs).
NodeIndex GangPlacer::packed_in_flavor(const PlacementRequest& request,
                                       const ResourceVector& per_pod) const {
  NodeIndex best;
  std::pair<int64_t, int64_t> best_rank{INT64_MAX, INT64_MAX};
  const int32_t buckets = capacity_->bucket_count(request.flavor);
  for (int64_t gpus = per_pod.gpu(); gpus < buckets; ++gpus) {
    for (uint32_t raw = capacity_->next_in_bucket(request.flavor, gpus, 0); raw != UINT32_MAX;
         raw = capacity_->next_in_bucket(request.flavor, gpus, raw + 1)) {
      const NodeIndex node(raw);
      if (!capacity_->fits(node, per_pod) ||
          !capacity_->usable_by(node, request.workload, request.finish_by)) {
        continue;
      }
      const std::pair<int64_t, int64_t> node_rank = rank(request, node);
      if (node_rank < best_rank) {
        best = node;
        best_rank = node_rank;
      }
    }
  }
  return best;
}

void GangPlacer::take(NodeIndex node, const ResourceVector& per_pod, PodSetAssignment& into) {
  const uint64_t gpus = capacity_->pick_gpus(node, per_pod.gpu());
  capacity_->allocate(node, per_pod, gpus);
  taken_.push_back({node, per_pod, gpus});
  into.pods.push_back({node, gpus});
  ++into.count;
}

void GangPlacer::undo_taken() {
  for (auto it = taken_.rbegin(); it != taken_.rend(); ++it) {
    capacity_->release(it->node, it->amount, it->gpus);
  }
  taken_.clear();
}

std::optional<std::vector<PodSetAssignment>> GangPlacer::place_in(
    const PlacementRequest& request, std::span<const NodeIndex> domain) {
  std::vector<PodSetAssignment> out(request.pod_sets.size());
  for (size_t set = 0; set < request.pod_sets.size(); ++set) {
    const ResourceVector& per_pod = request.pod_sets[set].per_pod;
    for (int32_t pod = 0; pod < request.counts[set]; ++pod) {
      const NodeIndex node = best_in_domain(request, per_pod, domain);
      if (!node.valid()) {
        undo_taken();
        return std::nullopt;
      }
      take(node, per_pod, out[set]);
    }
  }
  undo_taken();
  return out;
}

std::optional<std::vector<PodSetAssignment>> GangPlacer::place_anywhere(
    const PlacementRequest& request) {
  std::vector<PodSetAssignment> out(request.pod_sets.size());
  for (size_t set = 0; set < request.pod_sets.size(); ++set) {
    const ResourceVector& per_pod = request.pod_sets[set].per_pod;
    for (int32_t pod = 0; pod < request.counts[set]; ++pod) {
      const NodeIndex node = best_in_flavor(request, per_pod);
      if (!node.valid()) {
        undo_taken();
        return std::nullopt;
      }
      take(node, per_pod, out[set]);
    }
  }
  undo_taken();
  return out;
}

void GangPlacer::commit(std::span<const PodSetRequest> pod_sets,
                        const std::vector<PodSetAssignment>& placement) {
  for (size_t set = 0; set < placement.size(); ++set) {
    for (const PodPlacement& pod : placement[set].pods) {
      capacity_->allocate(pod.node, pod_sets[set].per_pod, pod.gpu_mask);
    }
  }
}

void GangPlacer::uncommit(std::span<const PodSetRequest> pod_sets,
                          const std::vector<PodSetAssignment>& placement) {
  for (size_t set = 0; set < placement.size(); ++set) {
    for (const PodPlacement& pod : placement[set].pods) {
      capacity_->release(pod.node, pod_sets[set].per_pod, pod.gpu_mask);
    }
  }
}

}  // namespace allot
