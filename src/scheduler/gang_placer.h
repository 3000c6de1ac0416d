// GangPlacer: finds nodes and GPUs for all pods of a workload at once (gang
// semantics), or reports that none exist now.
//
// Strategy: a request whose pods cannot fit the free GPU counts of the
// flavor's nodes fails at once (CapacityIndex::gpu_pod_slots). One pod goes
// to the best-fitting node (fewest free GPUs that still hold it). Several pods go into one rack if
// any rack can hold them all (the fullest such rack first), else one block, else anywhere in the
// flavor, each pod on the best-fitting node of that domain. Nodes reserved for another gang are
// used only by work that ends before the reservation starts.
//
// Work within its team's nominal (`anchored`, given a NodeTenancy) is packed
// instead: each pod goes to the node with the least room left for anchored
// work (GPUs less the anchored ones) that holds it, then the fewest free GPUs,
// then the lowest node, so that the nodes where borrowers' work runs stay
// clear of work no reclaim may take (node_tenancy.h).
//
// Contract: place() leaves the CapacityIndex as it found it; commit() applies
// a placement. Deterministic: ties go to the lowest node index.
#pragma once

#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "scheduler/capacity_index.h"
#include "scheduler/node_tenancy.h"
#include "scheduler/snapshot.h"

namespace allot {

struct PlacementRequest {
  WorkloadId workload;
  FlavorIndex flavor;
  std::span<const PodSetRequest> pod_sets;
  std::span<const int32_t> counts;                     // pods wanted per pod set
  Timestamp finish_by = Timestamp::infinite_future();  // declared end, for reservations
  bool anchored = false;  // within its team's nominal: packed with such work
};

class GangPlacer {
 public:
  explicit GangPlacer(CapacityIndex& capacity, const NodeTenancy* tenancy = nullptr)
      : capacity_(&capacity), tenancy_(tenancy) {}

  [[nodiscard]] std::optional<std::vector<PodSetAssignment>> place(const PlacementRequest& request);
  void commit(std::span<const PodSetRequest> pod_sets,
              const std::vector<PodSetAssignment>& placement);
  void uncommit(std::span<const PodSetRequest> pod_sets,
                const std::vector<PodSetAssignment>& placement);

 private:
  struct Taken {
    NodeIndex node;
    ResourceVector amount;
    uint64_t gpus = 0;
  };
  [[nodiscard]] bool enough_gpu_slots(const PlacementRequest& request) const;
  // Places every pod within `domain` (nodes), or none; allocations are undone.
  std::optional<std::vector<PodSetAssignment>> place_in(const PlacementRequest& request,
                                                        std::span<const NodeIndex> domain);
  // Places every pod anywhere in the flavor using the GPU buckets.
  std::optional<std::vector<PodSetAssignment>> place_anywhere(const PlacementRequest& request);
  std::optional<std::vector<PodSetAssignment>> place_in_racks(const PlacementRequest& request,
                                                              const ResourceVector& total);
  std::optional<std::vector<PodSetAssignment>> place_in_blocks(const PlacementRequest& request,
                                                               const ResourceVector& total);
  NodeIndex best_in_domain(const PlacementRequest& request, const ResourceVector& per_pod,
                           std::span<const NodeIndex> domain) const;
  NodeIndex best_in_flavor(const PlacementRequest& request, const ResourceVector& per_pod) const;
  // The anchored pod's node: least room for anchored work, then best fit.
  NodeIndex packed_in_flavor(const PlacementRequest& request, const ResourceVector& per_pod) const;
  // Placement packs this request's pods with anchored work.
  [[nodiscard]] bool packs(const PlacementRequest& request) const {
    return tenancy_ != nullptr && request.anchored;
  }
  // The order of the nodes for a pod (smaller first), among those that hold it.
  [[nodiscard]] std::pair<int64_t, int64_t> rank(const PlacementRequest& request,
                                                 NodeIndex node) const;
  void take(NodeIndex node, const ResourceVector& per_pod, PodSetAssignment& into);
  void undo_taken();

  CapacityIndex* capacity_;
  const NodeTenancy* tenancy_;
  std::vector<Taken> taken_;
};

}  // namespace allot
