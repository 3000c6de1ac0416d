// SqliteConnection: one owned SQLite connection to a database file.
//
// Contract: open() creates the file when missing; extended result codes are on
// and a busy timeout is set, so a locked database is waited for before it is
// an error (kUnavailable). Closing is deferred by SQLite until the
// connection's statements are finalized, so members may be destroyed in any
// order. Thread-compatible: the connection is opened without SQLite's own
// mutex, so its owner must use it from one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/status.h"
#include "store/sqlite/sqlite_statement.h"

struct sqlite3;

namespace allot {

class SqliteConnection {
 public:
  static Result<SqliteConnection> open(const std::string& path, int busy_timeout_ms);

  // Runs SQL without results; several statements may be separated by ';'.
  Status execute(std::string_view sql);
  // A statement to run many times (SQLITE_PREPARE_PERSISTENT).
  Result<SqliteStatement> prepare(std::string_view sql);
  // The first column of the first row of `sql` ("PRAGMA user_version").
  Result<int64_t> query_int(std::string_view sql);
  Result<std::string> query_text(std::string_view sql);
  // True between BEGIN and COMMIT/ROLLBACK. SQLite ends a transaction by
  // itself after some errors (a full disk, an I/O error): this tells.
  [[nodiscard]] bool in_transaction() const;
  // The most parameters one statement may have (SQLITE_LIMIT_VARIABLE_NUMBER:
  // 32,766 since SQLite 3.32, 999 before).
  [[nodiscard]] int max_parameters() const;

 private:
  explicit SqliteConnection(sqlite3* db);

  struct Closer {
    void operator()(sqlite3* db) const;
  };
  std::unique_ptr<sqlite3, Closer> db_;
};

}  // namespace allot
