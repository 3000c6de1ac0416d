// RawDatabase: a plain SQLite connection for tests that look at or tamper with
// a store's file behind its back (pragmas, locks, future schema versions).
#pragma once

#include <string>

struct sqlite3;

namespace allot::store_test {

class RawDatabase {
 public:
  explicit RawDatabase(const std::string& path);
  ~RawDatabase();
  RawDatabase(const RawDatabase&) = delete;
  RawDatabase& operator=(const RawDatabase&) = delete;

  // True when every statement of `sql` ran.
  bool execute(const std::string& sql);
  // The first column of the first row as text; "" when there is none or on error.
  std::string query_text(const std::string& sql);

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace allot::store_test
