// The PostgreSQL store's schema: an append-only list of migrations, recorded
// in the table allot_schema.
//
// Contract: migrate_postgres_schema() brings the database to the latest
// version in one transaction, holding a transaction-scoped advisory lock so
// that two allotd starting together migrate once; a database whose version
// is newer than this code is refused (kFailedPrecondition) and left
// untouched. Tables (all prefixed allot_, so that the database may be
// shared): allot_objects, allot_workloads, allot_events, allot_meta (the
// highest workload id) and allot_leader (the leadership term, see
// pg_leader_lock.h).
#pragma once

#include <cstdint>

#include "base/status.h"
#include "store/postgres/pg_connection.h"

namespace allot {

int64_t latest_postgres_schema_version();

Status migrate_postgres_schema(PgConnection& db);

}  // namespace allot
