#include "store/postgres/pg_schema.h"

#include <array>
#include <string>
#include <string_view>

namespace allot {
namespace {

// pg_advisory_xact_lock key of schema migrations ("allotmig" in ASCII).
constexpr int64_t kMigrationLockKey = 0x616c6c6f746d6967;

struct Migration {
  int64_t version;  // allot_schema.version after this step
  std::string_view sql;
};

// Append only: a released step is never edited, a change is a new step.
// Names and kinds are text compared byte-wise (COLLATE "C"), as SQLite does;
// documents and event messages are bytea: the store keeps every byte.
constexpr std::array<Migration, 5> kMigrations = {{
    {1, R"sql(
      CREATE TABLE allot_objects (
        kind text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        document bytea NOT NULL,
        PRIMARY KEY (kind, name)
      );
      CREATE TABLE allot_workloads (
        id bigint PRIMARY KEY,
        namespace text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        team text COLLATE "C" NOT NULL,
        phase text NOT NULL,
        document bytea NOT NULL,
        UNIQUE (namespace, name)
      );
      CREATE TABLE allot_events (
        sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        workload_id bigint NOT NULL,
        at_ms bigint NOT NULL,
        type text NOT NULL,
        reason bytea NOT NULL,
        message bytea NOT NULL
      );
      CREATE INDEX allot_events_by_workload ON allot_events (workload_id, sequence);
      CREATE TABLE allot_meta (
        key text PRIMARY KEY,
        value bigint NOT NULL
      );
      INSERT INTO allot_meta (key, value) VALUES ('max_workload_id', 0);
      CREATE TABLE allot_leader (
        id integer PRIMARY KEY CHECK (id = 1),
        term bigint NOT NULL,
        holder text NOT NULL,
        elected_at timestamptz
      );
      INSERT INTO allot_leader (id, term, holder) VALUES (1, 0, '');
    )sql"},
    // The metering ledger (store.h: allocations). end_ms is NULL while open.
    {2, R"sql(
      CREATE TABLE allot_allocations (
        workload_id bigint NOT NULL,
        start_ms bigint NOT NULL,
        end_ms bigint,
        team text COLLATE "C" NOT NULL,
        submitted_by bytea NOT NULL,
        workload_name bytea NOT NULL,
        flavor text COLLATE "C" NOT NULL,
        own_gpu bigint NOT NULL,
        own_cpu_millis bigint NOT NULL,
        own_memory_bytes bigint NOT NULL,
        borrowed_gpu bigint NOT NULL,
        borrowed_cpu_millis bigint NOT NULL,
        borrowed_memory_bytes bigint NOT NULL,
        PRIMARY KEY (workload_id, start_ms)
      );
      CREATE INDEX allot_allocations_by_start ON allot_allocations (start_ms);
      CREATE INDEX allot_allocations_open ON allot_allocations (workload_id, start_ms)
        WHERE end_ms IS NULL;
    )sql"},
    // Measured GPU utilisation per workload (store.h: gpu_utilization).
    {3, R"sql(
      CREATE TABLE allot_gpu_utilization (
        workload_id bigint NOT NULL,
        gpu bytea NOT NULL,
        start_ms bigint NOT NULL,
        end_ms bigint NOT NULL,
        utilization_ppm bigint NOT NULL,
        PRIMARY KEY (workload_id, gpu, start_ms)
      );
      CREATE INDEX allot_gpu_utilization_by_start ON allot_gpu_utilization (start_ms);
    )sql"},
    // The audit outbox (store.h): append-only, keyed by the caller's sequence,
    // deleted by range (its rows were objects of kind "AuditOutbox" before).
    // IF NOT EXISTS: a step applied again is a no-op.
    {4, R"sql(
      CREATE TABLE IF NOT EXISTS allot_audit_outbox (
        sequence bigint PRIMARY KEY,
        audit_id bytea NOT NULL,
        document bytea NOT NULL
      );
    )sql"},
    // The highest ranged delete of the audit outbox (store.h:
    // StoredState::audit_outbox_floor).
    {5, R"sql(
      INSERT INTO allot_meta (key, value) VALUES ('audit_outbox_floor', 0)
        ON CONFLICT (key) DO NOTHING;
    )sql"},
}};

Result<int64_t> stored_version(PgConnection& db) {
  ALLOT_ASSIGN_OR_RETURN(PgResult result,
                         db.query("SELECT coalesce(max(version), 0)::bigint FROM allot_schema"));
  return result.int64(0, 0);
}

// Runs inside migrate_postgres_schema()'s transaction, under its lock.
Status apply_migrations(PgConnection& db) {
  ALLOT_RETURN_IF_ERROR(
      db.execute("CREATE TABLE IF NOT EXISTS allot_schema (version bigint PRIMARY KEY)"));
  ALLOT_ASSIGN_OR_RETURN(int64_t version, stored_version(db));
  if (version > latest_postgres_schema_version()) {
    return failed_precondition("the database has allot schema version " + std::to_string(version) +
                               ", newer than the " +
                               std::to_string(latest_postgres_schema_version()) +
                               " this allot knows; run a newer allot (or restore a backup)");
  }
  for (const Migration& migration : kMigrations) {
    if (migration.version <= version) continue;
    Status status = db.execute(migration.sql);
    if (status.ok()) {
      status = db.query("INSERT INTO allot_schema (version) VALUES ($1)",
                        PgParams().int64(migration.version))
                   .status();
    }
    if (!status.ok()) {
      return Status(status.code(),
                    "schema migration to version " + std::to_string(migration.version) +
                        " failed: " + status.message(),
                    status.details());
    }
  }
  return {};
}

}  // namespace

int64_t latest_postgres_schema_version() { return kMigrations.back().version; }

Status migrate_postgres_schema(PgConnection& db) {
  ALLOT_RETURN_IF_ERROR(db.execute("BEGIN"));
  Status status =
      db.query("SELECT pg_advisory_xact_lock($1)", PgParams().int64(kMigrationLockKey)).status();
  if (status.ok()) status = apply_migrations(db);
  if (status.ok()) status = db.execute("COMMIT");
  if (!status.ok()) (void)db.execute("ROLLBACK");
  return status;
}

}  // namespace allot
