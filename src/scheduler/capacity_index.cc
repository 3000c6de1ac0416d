#include "scheduler/capacity_index.h"

#include <bit>

#include "base/check.h"

namespace allot {

CapacityIndex::CapacityIndex(const CompiledPolicy& policy, const Topology& topology,
                             const std::vector<NodeCondition>& conditions)
    : policy_(&policy),
      topology_(&topology),
      free_gpus_(policy.node_count(), 0),
      schedulable_(policy.node_count(), true),
      reserved_from_(policy.node_count(), Timestamp::infinite_future()),
      reserved_for_(policy.node_count()),
      flavor_free_(policy.flavor_count()),
      rack_free_(policy.rack_count()),
      block_free_(policy.block_count()),
      buckets_(policy.flavor_count()),
      bucket_sizes_(policy.flavor_count()),
      open_bucket_sizes_(policy.flavor_count()) {
  free_.reserve(policy.node_count());
  for (int32_t f = 0; f < policy.flavor_count(); ++f) {
    buckets_[f].assign(topology.max_gpus(FlavorIndex(static_cast<uint16_t>(f))) + 1,
                       std::vector<uint64_t>((policy.node_count() + 63) / 64, 0));
    bucket_sizes_[f].assign(buckets_[f].size(), 0);
    open_bucket_sizes_[f].assign(buckets_[f].size(), 0);
  }
  for (int32_t i = 0; i < policy.node_count(); ++i) {
    const NodeIndex node(i);
    const ResourceVector& capacity = topology.capacity_of(node);
    free_.push_back(capacity);
    const int64_t gpus = capacity.gpu();
    free_gpus_[i] = gpus >= 64 ? ~uint64_t{0} : (uint64_t{1} << gpus) - 1;
    const bool ok =
        policy.node_listed_schedulable(node) && (conditions.empty() || conditions[i].schedulable());
    schedulable_[i] = ok;
    if (!ok) continue;
    const auto flavor = topology.flavor_of(node).value();
    flavor_free_[flavor] += capacity;
    rack_free_[topology.rack_of(node)] += capacity;
    block_free_[topology.block_of(node)] += capacity;
    buckets_[flavor][gpus][i / 64] |= uint64_t{1} << (i % 64);
    ++bucket_sizes_[flavor][gpus];
    ++open_bucket_sizes_[flavor][gpus];
  }
}

bool CapacityIndex::has_gpu_pod_slots(FlavorIndex f, int64_t gpus, int64_t pods,
                                      bool open_only) const {
  const std::vector<int32_t>& sizes =
      open_only ? open_bucket_sizes_[f.value()] : bucket_sizes_[f.value()];
  int64_t slots = 0;
  for (auto free = static_cast<int64_t>(sizes.size()) - 1; free >= gpus && slots < pods; --free) {
    slots += static_cast<int64_t>(sizes[static_cast<size_t>(free)]) * (free / gpus);
  }
  return slots >= pods;
}

int64_t CapacityIndex::gpu_pod_slots(FlavorIndex f, int64_t gpus) const {
  const std::vector<int32_t>& sizes = bucket_sizes_[f.value()];
  int64_t slots = 0;
  for (auto free = static_cast<size_t>(gpus); free < sizes.size(); ++free) {
    slots += static_cast<int64_t>(sizes[free]) * (static_cast<int64_t>(free) / gpus);
  }
  return slots;
}

void CapacityIndex::adjust_totals(NodeIndex node, const ResourceVector& delta, bool add) {
  const auto flavor = topology_->flavor_of(node).value();
  const int32_t rack = topology_->rack_of(node);
  const int32_t block = topology_->block_of(node);
  if (add) {
    flavor_free_[flavor] += delta;
    rack_free_[rack] += delta;
    block_free_[block] += delta;
  } else {
    flavor_free_[flavor] -= delta;
    rack_free_[rack] -= delta;
    block_free_[block] -= delta;
  }
}

void CapacityIndex::move_bucket(NodeIndex node, int64_t from_gpus, int64_t to_gpus) {
  if (from_gpus == to_gpus) return;
  const auto flavor = topology_->flavor_of(node).value();
  auto& buckets = buckets_[flavor];
  const uint32_t i = node.value();
  buckets[from_gpus][i / 64] &= ~(uint64_t{1} << (i % 64));
  buckets[to_gpus][i / 64] |= uint64_t{1} << (i % 64);
  --bucket_sizes_[flavor][from_gpus];
  ++bucket_sizes_[flavor][to_gpus];
  if (!reserved(node)) {
    --open_bucket_sizes_[flavor][from_gpus];
    ++open_bucket_sizes_[flavor][to_gpus];
  }
}

void CapacityIndex::allocate(NodeIndex node, const ResourceVector& amount, uint64_t gpu_mask) {
  const auto i = node.value();
  ALLOT_CHECK(amount.fits_in(free_[i]));
  ALLOT_CHECK((free_gpus_[i] & gpu_mask) == gpu_mask);
  const int64_t before = free_[i].gpu();
  free_[i] -= amount;
  free_gpus_[i] &= ~gpu_mask;
  if (!schedulable_[i]) return;
  adjust_totals(node, amount, false);
  move_bucket(node, before, free_[i].gpu());
}

void CapacityIndex::hold(NodeIndex node, const ResourceVector& amount, uint64_t gpu_mask) {
  const auto i = node.value();
  const bool consistent = amount.fits_in(free_[i]) && (free_gpus_[i] & gpu_mask) == gpu_mask;
  if (schedulable_[i] && consistent) {
    allocate(node, amount, gpu_mask);
    return;
  }
  if (schedulable_[i]) {
    // Over-committed (the node shrank under running work): take it out of
    // scheduling for this cycle rather than trust its numbers.
    adjust_totals(node, free_[i], false);
    const auto flavor = topology_->flavor_of(node).value();
    buckets_[flavor][free_[i].gpu()][i / 64] &= ~(uint64_t{1} << (i % 64));
    --bucket_sizes_[flavor][free_[i].gpu()];
    if (!reserved(node)) --open_bucket_sizes_[flavor][free_[i].gpu()];
    schedulable_[i] = false;
  }
  free_[i] -= amount;
  free_gpus_[i] &= ~gpu_mask;
}

void CapacityIndex::release(NodeIndex node, const ResourceVector& amount, uint64_t gpu_mask) {
  const auto i = node.value();
  ALLOT_CHECK(!schedulable_[i] || (free_gpus_[i] & gpu_mask) == 0);
  const int64_t before = free_[i].gpu();
  free_[i] += amount;
  free_gpus_[i] |= gpu_mask;
  ALLOT_CHECK(!schedulable_[i] || before >= 0);
  if (!schedulable_[i]) return;
  adjust_totals(node, amount, true);
  move_bucket(node, before, free_[i].gpu());
}

void CapacityIndex::reserve(NodeIndex node, WorkloadId for_workload, Timestamp from) {
  count_reserved(node, -1);
  reserved_from_[node.value()] = from;
  reserved_for_[node.value()] = for_workload;
  count_reserved(node, +1);
}

void CapacityIndex::count_reserved(NodeIndex node, int32_t delta) {
  if (!reserved(node)) return;
  const uint64_t owner = reserved_for_[node.value()].value();
  if ((reserved_nodes_of_[owner] += delta) == 0) reserved_nodes_of_.erase(owner);
  if (schedulable_[node.value()]) {
    open_bucket_sizes_[topology_->flavor_of(node).value()][free_[node.value()].gpu()] -= delta;
  }
}

void CapacityIndex::unreserve(NodeIndex node) {
  count_reserved(node, -1);
  reserved_from_[node.value()] = Timestamp::infinite_future();
  reserved_for_[node.value()] = WorkloadId();
}

bool CapacityIndex::usable_by(NodeIndex node, WorkloadId workload, Timestamp finish_by) const {
  const auto i = node.value();
  if (!schedulable_[i]) return false;
  if (reserved_from_[i] == Timestamp::infinite_future()) return true;
  return reserved_for_[i] == workload || finish_by <= reserved_from_[i];
}

bool CapacityIndex::fits(NodeIndex node, const ResourceVector& per_pod) const {
  return per_pod.fits_in(free_[node.value()]);
}

uint64_t CapacityIndex::pick_gpus(NodeIndex node, int64_t count) const {
  uint64_t available = free_gpus_[node.value()];
  uint64_t mask = 0;
  for (int64_t taken = 0; taken < count && available != 0; ++taken) {
    const uint64_t lowest = available & (~available + 1);
    mask |= lowest;
    available &= ~lowest;
  }
  ALLOT_CHECK(std::popcount(mask) == count);
  return mask;
}

}  // namespace allot
