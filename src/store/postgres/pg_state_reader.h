// PgStateReader: the reads of the PostgreSQL store: the whole state at
// startup, and one workload's events.
//
// Contract: load() reads in one REPEATABLE READ, READ ONLY transaction, so
// objects, workloads and the highest id come from one snapshot; objects are
// ordered by (kind, name) byte-wise, workloads by id. A broken connection is
// re-established, and a read that failed because its session had ended is
// run once more on a new connection. Thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "store/postgres/pg_connection.h"
#include "store/store.h"

namespace allot {

class PgStateReader {
 public:
  explicit PgStateReader(PgConnection db) : db_(std::move(db)) {}

  Result<StoredState> load();
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after);
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms);
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms, int64_t to_ms);

 private:
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization_once(int64_t from_ms, int64_t to_ms);
  // Runs a query of allocation rows (kAllocationColumns) and decodes them.
  Result<std::vector<AllocationRecord>> query_allocations(std::string_view where,
                                                          const PgParams& params);
  Result<StoredState> load_once();
  Result<std::vector<EventRecord>> events_once(WorkloadId workload_id, uint64_t after);
  Status read_state(StoredState& state);
  Status read_workloads(std::vector<WorkloadRecord>& workloads);
  Status read_audit_outbox(std::vector<AuditOutboxRecord>& rows);

  PgConnection db_;
};

}  // namespace allot
