#include "store/sqlite/sqlite_connection.h"

#include <utility>

#include <sqlite3.h>

namespace allot {

void SqliteConnection::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

SqliteConnection::SqliteConnection(sqlite3* db) : db_(db) {}

Result<SqliteConnection> SqliteConnection::open(const std::string& path, int busy_timeout_ms) {
  sqlite3* raw = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  SqliteConnection connection(raw);  // SQLite returns a handle to close even on failure
  if (rc != SQLITE_OK) return sqlite_status(raw, rc, path);
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, busy_timeout_ms);
  return connection;
}

Status SqliteConnection::execute(std::string_view sql) {
  const std::string text(sql);
  const int rc = sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? Status() : sqlite_status(db_.get(), rc, sql);
}

Result<SqliteStatement> SqliteConnection::prepare(std::string_view sql) {
  sqlite3_stmt* raw = nullptr;
  const int rc = sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &raw, nullptr);
  SqliteStatement statement(raw);
  if (rc != SQLITE_OK) return sqlite_status(db_.get(), rc, sql);
  return statement;
}

Result<int64_t> SqliteConnection::query_int(std::string_view sql) {
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement statement, prepare(sql));
  ALLOT_ASSIGN_OR_RETURN(bool has_row, statement.step());
  if (!has_row) return Status(ErrorCode::kInternal, "the query returned no row", std::string(sql));
  return statement.column_int64(0);
}

Result<std::string> SqliteConnection::query_text(std::string_view sql) {
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement statement, prepare(sql));
  ALLOT_ASSIGN_OR_RETURN(bool has_row, statement.step());
  if (!has_row) return Status(ErrorCode::kInternal, "the query returned no row", std::string(sql));
  return statement.column_text(0);
}

bool SqliteConnection::in_transaction() const { return sqlite3_get_autocommit(db_.get()) == 0; }

int SqliteConnection::max_parameters() const {
  return sqlite3_limit(db_.get(), SQLITE_LIMIT_VARIABLE_NUMBER, -1);
}

}  // namespace allot
