// CapacityIndex: free resources and free GPU indices of every node during one
// cycle, indexed for best-fit search.
//
// Contract: built from the snapshot (capacity minus what admitted workloads
// hold); allocate()/release() keep the per-flavor buckets (nodes by number of
// free GPUs), and the free totals per flavor, rack and block, in step. Only
// schedulable nodes (healthy, not cordoned) are in buckets and totals.
// Reserved nodes stay in buckets; usable_by() says whether a workload that
// finishes by a given time may use them. Not thread-safe.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/snapshot.h"
#include "scheduler/topology.h"

namespace allot {

class CapacityIndex {
 public:
  CapacityIndex(const CompiledPolicy& policy, const Topology& topology,
                const std::vector<NodeCondition>& conditions);

  // REQUIRES: the node has `amount` and the GPUs of `gpu_mask` free.
  void allocate(NodeIndex node, const ResourceVector& amount, uint64_t gpu_mask);
  // Returns resources taken by allocate() (or held before the cycle).
  void release(NodeIndex node, const ResourceVector& amount, uint64_t gpu_mask);
  // Takes capacity that admitted workloads held before the cycle, even on
  // unschedulable nodes (whose totals are not tracked).
  void hold(NodeIndex node, const ResourceVector& amount, uint64_t gpu_mask);

  void reserve(NodeIndex node, WorkloadId for_workload, Timestamp from);
  void unreserve(NodeIndex node);
  [[nodiscard]] bool reserved(NodeIndex node) const {
    return reserved_from_[node.value()] != Timestamp::infinite_future();
  }
  [[nodiscard]] WorkloadId reserved_for(NodeIndex node) const {
    return reserved_for_[node.value()];
  }

  [[nodiscard]] bool schedulable(NodeIndex node) const { return schedulable_[node.value()]; }
  // A pod of `workload` that ends by `finish_by` may use the node.
  [[nodiscard]] bool usable_by(NodeIndex node, WorkloadId workload, Timestamp finish_by) const;
  // The node can hold one more pod of `per_pod` (ignoring reservations).
  [[nodiscard]] bool fits(NodeIndex node, const ResourceVector& per_pod) const;
  [[nodiscard]] const ResourceVector& free(NodeIndex node) const { return free_[node.value()]; }
  [[nodiscard]] uint64_t free_gpus(NodeIndex node) const { return free_gpus_[node.value()]; }

  [[nodiscard]] const ResourceVector& flavor_free(FlavorIndex f) const {
    return flavor_free_[f.value()];
  }
  [[nodiscard]] const ResourceVector& rack_free(int32_t rack) const { return rack_free_[rack]; }
  [[nodiscard]] const ResourceVector& block_free(int32_t block) const { return block_free_[block]; }
  // Nodes of the flavor that have exactly `gpus` free GPUs, in index order.
  // The lowest node index >= from in the bucket (nodes of the flavor with
  // exactly `gpus` free GPUs), or UINT32_MAX.
  [[nodiscard]] uint32_t next_in_bucket(FlavorIndex f, int64_t gpus, uint32_t from) const {
    const std::vector<uint64_t>& words = buckets_[f.value()][gpus];
    size_t w = from / 64;
    if (w >= words.size()) return UINT32_MAX;
    uint64_t bits = words[w] & (~uint64_t{0} << (from % 64));
    while (bits == 0) {
      if (++w == words.size()) return UINT32_MAX;
      bits = words[w];
    }
    return static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  }
  // How many pods of `gpus` GPUs each (> 0) the schedulable nodes of the
  // flavor could take by their free GPU counts alone: a bound that no
  // placement can beat (CPU, memory and reservations only lower it).
  [[nodiscard]] int64_t gpu_pod_slots(FlavorIndex f, int64_t gpus) const;
  // gpu_pod_slots(f, gpus) >= pods, counted from the emptiest nodes down and
  // stopped as soon as it holds. With `open_only`, only nodes that are not
  // reserved count (what work without a declared end may use, unless it
  // holds a reservation itself).
  [[nodiscard]] bool has_gpu_pod_slots(FlavorIndex f, int64_t gpus, int64_t pods,
                                       bool open_only = false) const;
  // Whether any node is reserved for `workload`.
  [[nodiscard]] bool holds_reserved_nodes(WorkloadId workload) const {
    return reserved_nodes_of_.contains(workload.value());
  }
  [[nodiscard]] int32_t bucket_count(FlavorIndex f) const {
    return static_cast<int32_t>(buckets_[f.value()].size());
  }
  [[nodiscard]] const Topology& topology() const { return *topology_; }
  [[nodiscard]] const CompiledPolicy& policy() const { return *policy_; }

  // The lowest `count` free GPU indices of the node, as a mask.
  [[nodiscard]] uint64_t pick_gpus(NodeIndex node, int64_t count) const;

 private:
  void adjust_totals(NodeIndex node, const ResourceVector& delta, bool add);
  void move_bucket(NodeIndex node, int64_t from_gpus, int64_t to_gpus);
  // Counts (+1) or uncounts (-1) a reserved node for its workload and in the
  // open bucket sizes.
  void count_reserved(NodeIndex node, int32_t delta);

  const CompiledPolicy* policy_;
  const Topology* topology_;
  std::vector<ResourceVector> free_;
  std::vector<uint64_t> free_gpus_;
  std::vector<bool> schedulable_;
  std::vector<Timestamp> reserved_from_;
  std::vector<WorkloadId> reserved_for_;
  std::vector<ResourceVector> flavor_free_;
  std::vector<ResourceVector> rack_free_;
  std::vector<ResourceVector> block_free_;
  std::vector<std::vector<std::vector<uint64_t>>> buckets_;  // bitsets over node index
  std::vector<std::vector<int32_t>> bucket_sizes_;           // nodes in each bucket
  std::vector<std::vector<int32_t>> open_bucket_sizes_;      // of them, not reserved
  std::unordered_map<uint64_t, int32_t> reserved_nodes_of_;  // by workload, when > 0
};

}  // namespace allot
