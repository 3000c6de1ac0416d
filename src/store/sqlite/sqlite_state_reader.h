// SqliteStateReader: the reads of SqliteStore (load() and events()) through
// their own connection and statements prepared once.
//
// Contract: load() reads in one read transaction, so it sees one committed
// state; in WAL mode it neither waits for nor blocks the writer.
// Thread-compatible: SqliteStore serialises its callers with a mutex.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "model/ids.h"
#include "store/sqlite/sqlite_connection.h"
#include "store/sqlite/sqlite_statement.h"
#include "store/store.h"

namespace allot {

class SqliteStateReader {
 public:
  // REQUIRES: the schema of `db` is migrated.
  static Result<SqliteStateReader> create(SqliteConnection db);

  Result<StoredState> load();
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after);
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms);
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms, int64_t to_ms);

 private:
  struct Statements;
  SqliteStateReader(SqliteConnection db, Statements statements);

  Status read_state(StoredState& state);
  Status read_objects(std::vector<ObjectRecord>& objects);
  // The workloads, and the audit outbox rows riding in their rows.
  Status read_workloads(StoredState& state);
  Status read_audit_outbox(std::vector<AuditOutboxRecord>& rows);
  static Status read_allocations(SqliteStatement& rows, std::vector<AllocationRecord>& out);

  SqliteConnection db_;
  // How many intervals the last allocations() read: the next one reserves room
  // for as many (a report over a million intervals spent a tenth of its time
  // growing the vector). Room is address space until written: a smaller read
  // after a large one touches only what it fills.
  size_t last_allocations_ = 0;
  struct Statements {
    SqliteStatement begin;
    SqliteStatement end;
    SqliteStatement count_objects;
    SqliteStatement objects;
    SqliteStatement count_workloads;
    SqliteStatement workloads;
    SqliteStatement max_workload_id;
    SqliteStatement audit_outbox_floor;
    SqliteStatement events;
    SqliteStatement open_allocations;
    SqliteStatement allocations;
    SqliteStatement utilization;
    SqliteStatement audit_outbox;
  } statements_;
};

}  // namespace allot
