// The schema of SqliteStore as an ordered list of migrations, versioned by
// SQLite's `PRAGMA user_version` (0 for a new file).
//
// Contract: migrate_schema() brings a database to latest_schema_version() in
// one transaction (all steps or none). A database whose version is newer than
// this code is refused with kFailedPrecondition and left untouched: an older
// allotd must not write a schema it does not know.
// Thread-compatible (the connection's thread).
#pragma once

#include <cstdint>

#include "base/status.h"
#include "store/sqlite/sqlite_connection.h"

namespace allot {

// The version a migrated database has.
int64_t latest_schema_version();

// kFailedPrecondition when the database is newer than this code. Reading the
// version is also the first read of the file, so a file that is not a SQLite
// database fails here (kFailedPrecondition, "file is not a database").
Status check_schema_version(SqliteConnection& db);

// REQUIRES: no open transaction on `db`.
Status migrate_schema(SqliteConnection& db);

}  // namespace allot
