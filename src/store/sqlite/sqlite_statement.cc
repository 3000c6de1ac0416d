#include "store/sqlite/sqlite_statement.h"

#include <string>

#include <sqlite3.h>

namespace allot {
namespace {

ErrorCode error_code_of(int rc) {
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PROTOCOL:
    case SQLITE_NOLFS: return ErrorCode::kUnavailable;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return ErrorCode::kFailedPrecondition;
    case SQLITE_CONSTRAINT: return ErrorCode::kAlreadyExists;
    case SQLITE_NOMEM:
    case SQLITE_TOOBIG: return ErrorCode::kResourceExhausted;
    default: return ErrorCode::kInternal;
  }
}

}  // namespace

Status sqlite_status(sqlite3* db, int rc, std::string_view sql) {
  // The connection's message is more precise ("UNIQUE constraint failed: ...")
  // but only when it describes this error.
  const bool db_knows = db != nullptr && sqlite3_extended_errcode(db) == rc;
  std::string message = db_knows ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  return {error_code_of(rc), std::move(message), std::string(sql)};
}

void SqliteStatement::Finalizer::operator()(sqlite3_stmt* statement) const {
  sqlite3_finalize(statement);
}

SqliteStatement::SqliteStatement(sqlite3_stmt* statement) : statement_(statement) {}

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
  const int rc = sqlite3_bind_int64(statement_.get(), index, value);
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
  // A null pointer would bind SQL NULL: an empty view must still be text.
  const char* data = text.data() == nullptr ? "" : text.data();
  const int rc =
      sqlite3_bind_text64(statement_.get(), index, data, text.size(), SQLITE_STATIC, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
  const int rc = sqlite3_bind_null(statement_.get(), index);
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
  return *this;
}

Status SqliteStatement::execute() {
  ResetOnExit reset(*this);
  if (bind_error_ != SQLITE_OK) return error(bind_error_);
  int rc = sqlite3_step(statement_.get());
  while (rc == SQLITE_ROW) rc = sqlite3_step(statement_.get());
  return rc == SQLITE_DONE ? Status() : error(rc);
}

Result<bool> SqliteStatement::step() {
  if (bind_error_ != SQLITE_OK) return error(bind_error_);
  const int rc = sqlite3_step(statement_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return error(rc);
}

int64_t SqliteStatement::column_int64(int column) const {
  return sqlite3_column_int64(statement_.get(), column);
}

bool SqliteStatement::column_is_null(int column) const {
  return sqlite3_column_type(statement_.get(), column) == SQLITE_NULL;
}

std::string SqliteStatement::column_text(int column) const {
  // sqlite3_column_bytes after sqlite3_column_text: the documented safe order.
  const unsigned char* text = sqlite3_column_text(statement_.get(), column);
  const int size = sqlite3_column_bytes(statement_.get(), column);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(size)};
}

void SqliteStatement::reset() {
  sqlite3_reset(statement_.get());
  sqlite3_clear_bindings(statement_.get());
  bind_error_ = SQLITE_OK;
}

Status SqliteStatement::error(int rc) const {
  return sqlite_status(sqlite3_db_handle(statement_.get()), rc, sqlite3_sql(statement_.get()));
}

}  // namespace allot
