#include "store/sqlite/sqlite_schema.h"

#include <array>
#include <string>
#include <string_view>

namespace allot {
namespace {

struct Migration {
  int64_t version;  // user_version after this step
  std::string_view sql;
  // For a step that SQL cannot make idempotent (ALTER TABLE ADD COLUMN): a
  // query whose count is not 0 once the step was applied (a user_version
  // set back); empty: none.
  std::string_view applied_if = {};
};

// Append only: a released step is never edited, a change is a new step.
constexpr std::array<Migration, 6> kMigrations = {{
    {1, R"sql(
      CREATE TABLE objects (
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        document TEXT NOT NULL,
        PRIMARY KEY (kind, name)
      ) WITHOUT ROWID;
      CREATE TABLE workloads (
        id INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        team TEXT NOT NULL,
        phase TEXT NOT NULL,
        document TEXT NOT NULL,
        UNIQUE (namespace, name)
      );
      -- AUTOINCREMENT: a sequence is never reused, even after its workload is deleted.
      CREATE TABLE events (
        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
        workload_id INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        type TEXT NOT NULL,
        reason TEXT NOT NULL,
        message TEXT NOT NULL
      );
      CREATE INDEX events_by_workload ON events (workload_id, sequence);
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO meta (key, value) VALUES ('max_workload_id', 0);
    )sql"},
    // The metering ledger (store.h: allocations). end_ms is NULL while open.
    {2, R"sql(
      CREATE TABLE allocations (
        workload_id INTEGER NOT NULL,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER,
        team TEXT NOT NULL,
        submitted_by TEXT NOT NULL,
        workload_name TEXT NOT NULL,
        flavor TEXT NOT NULL,
        own_gpu INTEGER NOT NULL,
        own_cpu_millis INTEGER NOT NULL,
        own_memory_bytes INTEGER NOT NULL,
        borrowed_gpu INTEGER NOT NULL,
        borrowed_cpu_millis INTEGER NOT NULL,
        borrowed_memory_bytes INTEGER NOT NULL,
        PRIMARY KEY (workload_id, start_ms)
      ) WITHOUT ROWID;
      CREATE INDEX allocations_by_start ON allocations (start_ms);
      CREATE INDEX allocations_open ON allocations (workload_id, start_ms) WHERE end_ms IS NULL;
    )sql"},
    // Measured GPU utilisation per workload (store.h: gpu_utilization).
    {3, R"sql(
      CREATE TABLE gpu_utilization (
        workload_id INTEGER NOT NULL,
        gpu TEXT NOT NULL,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        utilization_ppm INTEGER NOT NULL,
        PRIMARY KEY (workload_id, gpu, start_ms)
      ) WITHOUT ROWID;
      CREATE INDEX gpu_utilization_by_start ON gpu_utilization (start_ms);
    )sql"},
    // The ledger's two indexes are dropped (the rows are kept); every admission
    // paid for keeping them (docs/benchmarks.md, issue 14's metering overhead).
    // The reports' query (start_ms < to, ordered by the key) scans the table in
    // key order, the plan SQLite chose with the index by start too; load()
    // finds the open intervals by that scan once at startup.
    {4, R"sql(
      DROP INDEX allocations_by_start;
      DROP INDEX allocations_open;
    )sql"},
    // The audit outbox (store.h): append-only, keyed by the caller's sequence,
    // so that rows go to the end of one b-tree and leave from its start by
    // one ranged delete (they were objects of kind "AuditOutbox" before: a
    // random page of `objects` for each, and a delete of each).
    // IF NOT EXISTS: a step applied again (a user_version set back) is a no-op.
    {5, R"sql(
      CREATE TABLE IF NOT EXISTS audit_outbox (
        sequence INTEGER PRIMARY KEY,
        audit_id TEXT NOT NULL,
        document TEXT NOT NULL
      );
    )sql"},
    // An audit outbox row may ride in the row of a workload its batch puts
    // (store.h), so that a request's commit writes no page for it alone.
    // audit_outbox_floor: the highest ranged delete, below which a riding
    // row is deleted (no index finds riding rows: a ranged delete raises
    // the floor, and a later put of the workload drops what is below it).
    {6, R"sql(
      ALTER TABLE workloads ADD COLUMN audit_sequence INTEGER;
      ALTER TABLE workloads ADD COLUMN audit_id TEXT;
      ALTER TABLE workloads ADD COLUMN audit_document TEXT;
      INSERT OR IGNORE INTO meta (key, value) VALUES ('audit_outbox_floor', 0);
    )sql",
     "SELECT count(*) FROM pragma_table_info('workloads') WHERE name = 'audit_sequence'"},
}};

Status check_version(int64_t version) {
  if (version <= latest_schema_version()) return {};
  return failed_precondition("the database has schema version " + std::to_string(version) +
                             ", newer than the " + std::to_string(latest_schema_version()) +
                             " this allot knows; run a newer allot (or restore a backup)");
}

// Runs inside migrate_schema()'s transaction.
Status apply_migrations(SqliteConnection& db) {
  // Read again under the write lock: another process may have migrated meanwhile.
  ALLOT_ASSIGN_OR_RETURN(int64_t version, db.query_int("PRAGMA user_version"));
  ALLOT_RETURN_IF_ERROR(check_version(version));
  if (version == latest_schema_version()) return {};
  for (const Migration& migration : kMigrations) {
    if (migration.version <= version) continue;
    if (!migration.applied_if.empty()) {
      ALLOT_ASSIGN_OR_RETURN(const int64_t applied, db.query_int(migration.applied_if));
      if (applied != 0) continue;
    }
    Status status = db.execute(migration.sql);
    if (!status.ok()) {
      return Status(status.code(),
                    "schema migration to version " + std::to_string(migration.version) +
                        " failed: " + status.message(),
                    status.details());
    }
  }
  return db.execute("PRAGMA user_version = " + std::to_string(latest_schema_version()));
}

}  // namespace

int64_t latest_schema_version() { return kMigrations.back().version; }

Status check_schema_version(SqliteConnection& db) {
  ALLOT_ASSIGN_OR_RETURN(int64_t version, db.query_int("PRAGMA user_version"));
  return check_version(version);
}

Status migrate_schema(SqliteConnection& db) {
  ALLOT_RETURN_IF_ERROR(db.execute("BEGIN IMMEDIATE"));
  Status status = apply_migrations(db);
  if (status.ok()) status = db.execute("COMMIT");
  if (!status.ok() && db.in_transaction()) (void)db.execute("ROLLBACK");
  return status;
}

}  // namespace allot
