// SqliteStatement: one prepared SQLite statement, owned (finalized on
// destruction), with the error mapping the store uses for every SQLite call.
//
// Contract: bind() never fails on its own; a bind error (a text too large for
// SQLite) is reported by the next execute() or step(). Text is bound without a
// copy: it must outlive the execute() or the last step() that reads it.
// Every error is a Status: its message is SQLite's, its details the SQL text.
// Thread-compatible: one thread at a time, like the connection it belongs to.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace allot {

// The Status for SQLite result code `rc` (extended codes welcome). `db` may be
// null; when set, its last error message is used. Busy, locked, I/O, full
// disk and cannot-open errors are kUnavailable; corruption and "not a
// database" kFailedPrecondition; constraint violations kAlreadyExists (the
// only constraints of the schema are keys); out of memory kResourceExhausted.
Status sqlite_status(sqlite3* db, int rc, std::string_view sql);

class SqliteStatement {
 public:
  // Takes ownership of a statement from sqlite3_prepare_v3.
  explicit SqliteStatement(sqlite3_stmt* statement);

  // Parameters are numbered from 1, as in SQL ("?1").
  SqliteStatement& bind(int index, int64_t value);
  SqliteStatement& bind(int index, std::string_view text);
  SqliteStatement& bind_null(int index);

  // Runs a statement that returns no rows to completion, then resets it.
  Status execute();
  // One step of a query: true when a row is ready, false when done.
  Result<bool> step();
  // Columns of the current row, numbered from 0. REQUIRES: step() gave true.
  [[nodiscard]] int64_t column_int64(int column) const;
  [[nodiscard]] std::string column_text(int column) const;
  [[nodiscard]] bool column_is_null(int column) const;
  // Rewinds and clears the bindings. A query that is not reset keeps its read
  // transaction open: use ResetOnExit around every query.
  void reset();

 private:
  [[nodiscard]] Status error(int rc) const;

  struct Finalizer {
    void operator()(sqlite3_stmt* statement) const;
  };
  std::unique_ptr<sqlite3_stmt, Finalizer> statement_;
  int bind_error_ = 0;  // SQLITE_OK, or the first failed bind since the last reset
};

// Resets a statement when it leaves scope, so that no return path leaves a
// query (and its read snapshot) open.
class ResetOnExit {
 public:
  explicit ResetOnExit(SqliteStatement& statement) : statement_(statement) {}
  ~ResetOnExit() { statement_.reset(); }
  ResetOnExit(const ResetOnExit&) = delete;
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  SqliteStatement& statement_;
};

}  // namespace allot
