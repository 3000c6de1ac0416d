// OutboxStore: the Store that carries requests' audit records in their
// commits (audit_outbox.h). allotd puts it in front of the SQLite or
// PostgreSQL store when the audit log is on.
//
// Contract: the Store contract (store/store.h) of the store it wraps, plus:
// - commit() and queue_commit() add, before the batch goes on, the row of
//   the request in scope on the calling thread and the ranged delete of
//   covered rows (AuditOutbox::attach).
// - load() recovers the rows (AuditOutbox::recover: every row's record in
//   the log, then the rows deleted) and returns the state without them: the
//   rest of allotd never sees an outbox row (nor an AuditOutbox object of an
//   older allotd). A failed recovery fails the load.
// Thread-safe as the wrapped store is.
#pragma once

#include <future>

#include "service/audit/audit_outbox.h"
#include "store/store.h"

namespace allot::audit {

class OutboxStore : public Store {
 public:
  OutboxStore(Store& inner, AuditOutbox& outbox) : inner_(inner), outbox_(outbox) {}

  Result<StoredState> load() override;
  Status commit(WriteBatch batch) override;
  std::future<Status> queue_commit(WriteBatch batch) override;
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after) override {
    return inner_.events(workload_id, after);
  }
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) override {
    return inner_.allocations(from_ms, to_ms);
  }
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                            int64_t to_ms) override {
    return inner_.gpu_utilization(from_ms, to_ms);
  }

 private:
  Store& inner_;
  AuditOutbox& outbox_;
};

}  // namespace allot::audit
