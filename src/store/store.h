// Store: the persistence port of allotd (DESIGN.md section 10).
//
// Contract:
// - commit() applies one WriteBatch atomically and returns only when it is
//   durable: for SQLite, the WAL is fsynced. A batch that fails applies
//   nothing and does not affect other batches.
// - Thread-safe. Concurrent commit() calls may share one transaction (group
//   commit); each caller still gets its own batch's outcome. Batches become
//   visible in the order commit() calls were queued.
// - queue_commit() queues a batch as commit() does and returns at once; its
//   future gives the outcome commit() would have returned, once the batch is
//   durable (or failed). Batches queued by either call become visible in the
//   order they were queued, so a caller can order its batches with a lock of
//   its own held only while it queues them, not while they are stored.
// - Documents are opaque to the store: the service encodes them (JSON via the
//   api layer). The store only reads the columns it indexes.
// - load() returns everything needed to rebuild state at startup.
// - Events are append-only; their `sequence` is assigned by the store and
//   grows with commit order.
// - Within one batch the parts apply in this order: object deletes, object
//   puts, workload deletes, workload puts, events, allocation puts. So a batch
//   may free a workload name and give it to another id.
// - Allocations are the metering ledger (DESIGN.md section 6): one interval
//   per admission, keyed by (workload_id, start_ms); a put inserts or replaces
//   the interval of its key (an admission opens it, the release of the
//   capacity closes it with end_ms). They are never deleted, not even with
//   their workload: the ledger is never recomputed. load() returns the open
//   ones; allocations(from, to) those that overlap [from, to).
// - GPU utilisation intervals are the ledger's measured efficiency: one per
//   (workload_id, gpu, start_ms), each a GPU's mean utilisation over
//   [start_ms, end_ms) while the workload held it (a put inserts or replaces
//   its key; never deleted). gpu_utilization(from, to) returns those that
//   overlap [from, to). They apply after the allocation puts.
// - The audit outbox (service/audit/audit_outbox.h) is an append-only table
//   keyed by an integer sequence the caller chooses (1..INT64_MAX): an
//   append inserts or replaces its sequence; a batch's
//   delete_audit_outbox_through, when not 0, deletes every row whose
//   sequence is <= it (one ranged delete). They apply last: the ranged
//   delete, then the appends. load() returns every row, ordered by sequence.
//   An append may name `with_workload`, a workload its batch puts: a store
//   may keep the row inside that workload's stored row instead of a place of
//   its own (SQLiteStore does, for a row above every ranged delete so far,
//   so that a request's commit writes no page for its record alone). Such a
//   row is the same row: it stays when that workload is changed or deleted,
//   until a ranged delete takes it. load() returns rows without
//   with_workload. A caller appends each sequence once, above
//   StoredState::audit_outbox_floor.
// - Ids are WorkloadIds; a put's must be in 1..INT64_MAX (kInvalidArgument
//   otherwise), so neither WorkloadId(0) nor the invalid WorkloadId() is ever
//   stored. Event sequences and `after` are plain integers: not ids.
// - StoredState::max_workload_id is std::nullopt until a workload was ever
//   committed; then it is the highest id committed (deleted ones included),
//   so the next free id is its value() + 1.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"
#include "base/status.h"
#include "model/ids.h"
#include "model/workload_status.h"

namespace allot {

// A cluster-scoped or namespaced configuration object (Team, NodePool, ...),
// or a piece of server state such as a node's condition (kind "NodeCondition").
struct ObjectRecord {
  std::string kind;
  std::string name;
  std::string document;

  friend bool operator==(const ObjectRecord&, const ObjectRecord&) = default;
};

struct ObjectKey {
  std::string kind;
  std::string name;

  friend bool operator==(const ObjectKey&, const ObjectKey&) = default;
};

struct WorkloadRecord {
  WorkloadId id;  // in 1..INT64_MAX; assigned by the service, unique forever
  std::string namespace_name;
  std::string name;  // unique within its namespace
  std::string team;
  WorkloadPhase phase = WorkloadPhase::kPending;
  std::string document;  // the workload with its status, encoded by the service

  friend bool operator==(const WorkloadRecord&, const WorkloadRecord&) = default;
};

struct EventRecord {
  uint64_t sequence = 0;  // assigned by the store; ignored in a WriteBatch
  WorkloadId workload_id;
  int64_t at_ms = 0;
  std::string type;  // the phase entered, or "Normal"/"Warning" for other events
  std::string reason;
  std::string message;

  friend bool operator==(const EventRecord&, const EventRecord&) = default;
};

struct AllocationRecord {
  WorkloadId workload_id;         // in 1..INT64_MAX
  int64_t start_ms = 0;           // the admission
  std::optional<int64_t> end_ms;  // the release of the capacity; none while open
  std::string team;
  std::string user;           // who submitted the workload
  std::string workload_name;  // "namespace/name"
  std::string flavor;
  ResourceVector own;       // within the team's nominal quota
  ResourceVector borrowed;  // borrowed from the cohort

  friend bool operator==(const AllocationRecord&, const AllocationRecord&) = default;
};

struct GpuUtilizationRecord {
  WorkloadId workload_id;       // in 1..INT64_MAX
  std::string gpu;              // "node/index": the GPU measured
  int64_t start_ms = 0;         // the previous sample of this GPU
  int64_t end_ms = 0;           // this sample; > start_ms
  int64_t utilization_ppm = 0;  // 0..1,000,000: the mean over [start_ms, end_ms), in ppm

  friend bool operator==(const GpuUtilizationRecord&, const GpuUtilizationRecord&) = default;
};

// A request's audit record carried in the store's commit (the audit outbox).
struct AuditOutboxRecord {
  uint64_t sequence = 0;  // in 1..INT64_MAX, chosen by the caller
  std::string audit_id;
  std::string document;  // opaque to the store
  // A workload the same batch puts, whose row may hold this one (the
  // contract above); the invalid id: none. Not returned by load().
  WorkloadId with_workload;

  friend bool operator==(const AuditOutboxRecord&, const AuditOutboxRecord&) = default;
};

struct WriteBatch {
  std::vector<ObjectRecord> put_objects;  // insert or replace by (kind, name)
  std::vector<ObjectKey> delete_objects;
  std::vector<WorkloadRecord> put_workloads;  // insert or replace by id
  std::vector<WorkloadId> delete_workloads;   // their events go too
  std::vector<EventRecord> events;
  std::vector<AllocationRecord> put_allocations;  // insert or replace by (workload_id, start_ms)
  // Insert or replace by (workload_id, gpu, start_ms).
  std::vector<GpuUtilizationRecord> put_gpu_utilization;
  // Deletes the audit outbox rows with a sequence <= it; 0: none.
  uint64_t delete_audit_outbox_through = 0;
  std::vector<AuditOutboxRecord> append_audit_outbox;  // insert or replace by sequence

  // Index of put_workloads by id for upsert_workload (entries [0,
  // indexed_workloads) are indexed; a vector changed other than through the
  // two functions below is indexed again). Stores ignore both fields.
  std::unordered_map<WorkloadId, size_t> workload_slots;
  size_t indexed_workloads = 0;

  // Puts the workload's record, replacing the batch's record of the same id:
  // one record per workload per batch, a later change replacing an earlier
  // one. O(1) on average (a linear search made a pass that admits thousands
  // of workloads in one batch quadratic).
  void upsert_workload(WorkloadRecord record);
  // Removes the batch's record of the workload, if it has one.
  void erase_workload(WorkloadId id);

  [[nodiscard]] bool empty() const {
    return put_objects.empty() && delete_objects.empty() && put_workloads.empty() &&
           delete_workloads.empty() && events.empty() && put_allocations.empty() &&
           put_gpu_utilization.empty() && delete_audit_outbox_through == 0 &&
           append_audit_outbox.empty();
  }
};

struct StoredState {
  std::vector<ObjectRecord> objects;      // ordered by (kind, name)
  std::vector<WorkloadRecord> workloads;  // ordered by id
  // The highest id ever committed (also deleted ones); nullopt when none ever was.
  std::optional<WorkloadId> max_workload_id;
  // The allocations still open, ordered by (workload_id, start_ms).
  std::vector<AllocationRecord> open_allocations;
  // The audit outbox's rows, ordered by sequence.
  std::vector<AuditOutboxRecord> audit_outbox;
  // The highest sequence a ranged delete of the audit outbox named (0: none,
  // or a store that does not keep it): new rows take sequences above it.
  uint64_t audit_outbox_floor = 0;
};

class Store {
 public:
  virtual ~Store() = default;

  // Everything stored. Called once at startup, before any commit.
  virtual Result<StoredState> load() = 0;

  // Durable and atomic on return (see the contract above). A put of a workload
  // whose (namespace, name) belongs to another id fails with kAlreadyExists.
  virtual Status commit(WriteBatch batch) = 0;

  // Queues the batch and returns at once (see the contract above). The
  // default commits before it returns, for stores without a queue of their
  // own (MemoryStore): the future is ready.
  virtual std::future<Status> queue_commit(WriteBatch batch);

  // A workload's events in sequence order; `after` skips those with a
  // sequence <= after (a sequence, not an id). Unknown ids, the invalid id
  // included, give an empty list.
  virtual Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after = 0) = 0;

  // The allocations that overlap [from_ms, to_ms): start_ms < to_ms and open
  // or end_ms > from_ms; ordered by (workload_id, start_ms).
  virtual Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) = 0;

  // The GPU utilisation intervals that overlap [from_ms, to_ms): start_ms <
  // to_ms and end_ms > from_ms; ordered by (workload_id, gpu, start_ms).
  virtual Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                                    int64_t to_ms) = 0;
};

inline std::future<Status> Store::queue_commit(WriteBatch batch) {
  std::promise<Status> outcome;
  outcome.set_value(commit(std::move(batch)));
  return outcome.get_future();
}

}  // namespace allot
