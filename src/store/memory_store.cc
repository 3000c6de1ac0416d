#include "store/memory_store.h"

#include <algorithm>

#include "store/batch_rules.h"

namespace allot {

Result<StoredState> MemoryStore::load() {
  std::lock_guard lock(mutex_);
  StoredState state;
  state.objects.reserve(objects_.size());
  for (const auto& [key, document] : objects_) {
    state.objects.push_back({key.first, key.second, document});
  }
  state.workloads.reserve(workloads_.size());
  for (const auto& [id, workload] : workloads_) state.workloads.push_back(workload);
  state.max_workload_id = max_workload_id_;
  for (const auto& [key, allocation] : allocations_) {
    if (!allocation.end_ms) state.open_allocations.push_back(allocation);
  }
  state.audit_outbox.reserve(audit_outbox_.size());
  for (const auto& [sequence, row] : audit_outbox_) state.audit_outbox.push_back(row);
  state.audit_outbox_floor = audit_outbox_floor_;
  return state;
}

Result<std::vector<AllocationRecord>> MemoryStore::allocations(int64_t from_ms, int64_t to_ms) {
  std::lock_guard lock(mutex_);
  std::vector<AllocationRecord> found;
  for (const auto& [key, allocation] : allocations_) {
    if (overlaps(allocation, from_ms, to_ms)) found.push_back(allocation);
  }
  return found;
}

Result<std::vector<GpuUtilizationRecord>> MemoryStore::gpu_utilization(int64_t from_ms,
                                                                       int64_t to_ms) {
  std::lock_guard lock(mutex_);
  std::vector<GpuUtilizationRecord> found;
  for (const auto& [key, record] : utilization_) {
    if (record.start_ms < to_ms && record.end_ms > from_ms) found.push_back(record);
  }
  return found;
}

Status MemoryStore::commit(WriteBatch batch) {
  ALLOT_RETURN_IF_ERROR(validate_batch(batch));
  std::lock_guard lock(mutex_);
  ALLOT_RETURN_IF_ERROR(check_names(batch));
  apply(batch);
  return {};
}

Result<std::vector<EventRecord>> MemoryStore::events(WorkloadId workload_id, uint64_t after) {
  std::lock_guard lock(mutex_);
  auto found = events_.find(workload_id);
  if (found == events_.end()) return std::vector<EventRecord>();
  const std::vector<EventRecord>& all = found->second;
  auto first = std::upper_bound(
      all.begin(), all.end(), after,
      [](uint64_t sequence, const EventRecord& event) { return sequence < event.sequence; });
  return std::vector<EventRecord>(first, all.end());
}

std::optional<MemoryStore::NameKey> MemoryStore::name_of(WorkloadId id) const {
  auto found = workloads_.find(id);
  if (found == workloads_.end()) return std::nullopt;
  return NameKey{found->second.namespace_name, found->second.name};
}

Status MemoryStore::check_names(const WriteBatch& batch) const {
  // What this batch has changed so far, over workload_ids_ and workloads_.
  std::map<NameKey, std::optional<WorkloadId>> owners;    // nullopt: freed
  std::map<WorkloadId, std::optional<NameKey>> names_by;  // nullopt: deleted
  auto current_name = [&](WorkloadId id) {
    auto changed = names_by.find(id);
    return changed != names_by.end() ? changed->second : name_of(id);
  };
  auto owner = [&](const NameKey& key) -> std::optional<WorkloadId> {
    if (auto changed = owners.find(key); changed != owners.end()) return changed->second;
    auto stored = workload_ids_.find(key);
    if (stored == workload_ids_.end()) return std::nullopt;
    return stored->second;
  };
  for (WorkloadId id : batch.delete_workloads) {
    if (std::optional<NameKey> name = current_name(id)) owners[*name] = std::nullopt;
    names_by[id] = std::nullopt;
  }
  for (const WorkloadRecord& workload : batch.put_workloads) {
    NameKey key{workload.namespace_name, workload.name};
    const std::optional<WorkloadId> holder = owner(key);
    if (holder && *holder != workload.id) return workload_name_taken(workload);
    if (std::optional<NameKey> old = current_name(workload.id); old && *old != key) {
      owners[*old] = std::nullopt;
    }
    owners[key] = workload.id;
    names_by[workload.id] = std::move(key);
  }
  return {};
}

void MemoryStore::apply(WriteBatch& batch) {
  for (const ObjectKey& key : batch.delete_objects) objects_.erase({key.kind, key.name});
  for (ObjectRecord& object : batch.put_objects) {
    objects_[{std::move(object.kind), std::move(object.name)}] = std::move(object.document);
  }
  for (WorkloadId id : batch.delete_workloads) delete_workload(id);
  for (WorkloadRecord& workload : batch.put_workloads) put_workload(workload);
  for (EventRecord& event : batch.events) {
    event.sequence = next_sequence_++;
    events_[event.workload_id].push_back(std::move(event));
  }
  for (AllocationRecord& allocation : batch.put_allocations) {
    const std::pair key{allocation.workload_id, allocation.start_ms};
    allocations_[key] = std::move(allocation);
  }
  for (GpuUtilizationRecord& record : batch.put_gpu_utilization) {
    std::tuple key{record.workload_id, record.gpu, record.start_ms};
    utilization_[std::move(key)] = std::move(record);
  }
  if (batch.delete_audit_outbox_through != 0) {
    audit_outbox_.erase(audit_outbox_.begin(),
                        audit_outbox_.upper_bound(batch.delete_audit_outbox_through));
    audit_outbox_floor_ = std::max(audit_outbox_floor_, batch.delete_audit_outbox_through);
  }
  for (AuditOutboxRecord& row : batch.append_audit_outbox) {
    const uint64_t sequence = row.sequence;
    row.with_workload = WorkloadId();  // a hint for the stores that use it
    audit_outbox_[sequence] = std::move(row);
  }
}

void MemoryStore::delete_workload(WorkloadId id) {
  events_.erase(id);
  auto found = workloads_.find(id);
  if (found == workloads_.end()) return;
  workload_ids_.erase({found->second.namespace_name, found->second.name});
  workloads_.erase(found);
}

void MemoryStore::put_workload(WorkloadRecord& workload) {
  if (std::optional<NameKey> old = name_of(workload.id)) workload_ids_.erase(*old);
  workload_ids_[{workload.namespace_name, workload.name}] = workload.id;
  if (!max_workload_id_ || *max_workload_id_ < workload.id) max_workload_id_ = workload.id;
  const WorkloadId id = workload.id;
  workloads_[id] = std::move(workload);
}

}  // namespace allot
