// WriteBatch's workload upsert (store.h): one record per workload per batch.

#include <algorithm>
#include <cstddef>
#include <utility>

#include "store/store.h"

namespace allot {
namespace {

// Indexes put_workloads[from, size), or all of it when the index may be stale.
void index_workloads(WriteBatch& batch) {
  if (batch.indexed_workloads > batch.put_workloads.size()) {
    batch.workload_slots.clear();
    batch.indexed_workloads = 0;
  }
  for (size_t slot = batch.indexed_workloads; slot < batch.put_workloads.size(); ++slot) {
    batch.workload_slots.insert_or_assign(batch.put_workloads[slot].id, slot);
  }
  batch.indexed_workloads = batch.put_workloads.size();
}

// The slot of the workload's record, or size() when the batch has none.
size_t slot_of(WriteBatch& batch, WorkloadId id) {
  index_workloads(batch);
  const auto found = batch.workload_slots.find(id);
  if (found == batch.workload_slots.end()) return batch.put_workloads.size();
  if (found->second < batch.put_workloads.size() && batch.put_workloads[found->second].id == id) {
    return found->second;
  }
  // The vector was reordered behind the index: index it again.
  batch.workload_slots.clear();
  batch.indexed_workloads = 0;
  index_workloads(batch);
  const auto again = batch.workload_slots.find(id);
  return again == batch.workload_slots.end() ? batch.put_workloads.size() : again->second;
}

}  // namespace

void WriteBatch::upsert_workload(WorkloadRecord record) {
  const size_t slot = slot_of(*this, record.id);
  if (slot < put_workloads.size()) {
    put_workloads[slot] = std::move(record);
    return;
  }
  workload_slots.insert_or_assign(record.id, put_workloads.size());
  put_workloads.push_back(std::move(record));
  indexed_workloads = put_workloads.size();
}

void WriteBatch::erase_workload(WorkloadId id) {
  std::erase_if(put_workloads, [id](const WorkloadRecord& record) { return record.id == id; });
  workload_slots.clear();
  indexed_workloads = 0;
}

}  // namespace allot
