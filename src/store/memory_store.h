// MemoryStore: a Store that keeps everything in memory, for tests and for
// `allotd --data-dir :memory:`. Nothing survives the object.
//
// Contract: the same semantics as SqliteStore (store.h), checked by one shared
// test suite: batches are atomic (checked in full before anything changes),
// event sequences grow with commit order and are never reused, deleting a
// workload deletes its events, max_workload_id remembers deleted ids.
// "Durable" means visible to every later call.
//
// Thread-safe: one mutex guards all state; commits are serialised.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "model/ids.h"
#include "store/store.h"

namespace allot {

class MemoryStore final : public Store {
 public:
  Result<StoredState> load() override;
  Status commit(WriteBatch batch) override;
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after = 0) override;
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) override;
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                            int64_t to_ms) override;

 private:
  // (kind, name) of an object or (namespace, name) of a workload.
  using NameKey = std::pair<std::string, std::string>;

  // The (namespace, name) that `id` holds now, if it exists. REQUIRES: mutex_ held.
  [[nodiscard]] std::optional<NameKey> name_of(WorkloadId id) const;
  // kAlreadyExists when a put would take a name another id holds at that point
  // of the batch (store.h gives the order). REQUIRES: mutex_ held.
  [[nodiscard]] Status check_names(const WriteBatch& batch) const;
  // Applies a batch that passed check_names(). REQUIRES: mutex_ held.
  void apply(WriteBatch& batch);
  void delete_workload(WorkloadId id);
  void put_workload(WorkloadRecord& workload);

  std::mutex mutex_;
  std::map<NameKey, std::string> objects_;  // (kind, name) -> document
  std::map<WorkloadId, WorkloadRecord> workloads_;
  std::map<NameKey, WorkloadId> workload_ids_;                       // (namespace, name) -> id
  std::unordered_map<WorkloadId, std::vector<EventRecord>> events_;  // per workload, by sequence
  std::map<std::pair<WorkloadId, int64_t>, AllocationRecord> allocations_;  // by key
  // By (workload_id, gpu, start_ms).
  std::map<std::tuple<WorkloadId, std::string, int64_t>, GpuUtilizationRecord> utilization_;
  std::map<uint64_t, AuditOutboxRecord> audit_outbox_;  // by sequence
  uint64_t audit_outbox_floor_ = 0;                     // the highest ranged delete
  uint64_t next_sequence_ = 1;
  std::optional<WorkloadId> max_workload_id_;  // nullopt until a workload is put
};

}  // namespace allot
