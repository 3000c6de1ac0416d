// PostgresTestDatabase: a fresh database on the test PostgreSQL server, made
// for one test and dropped after it.
//
// The server is the one scripts/postgres.sh starts; ctest starts it before
// the PostgreSQL tests and stops it after them (the `postgres` fixture in
// tests/store/CMakeLists.txt), and passes its conninfo in the environment
// variable ALLOT_TEST_POSTGRES. Without it, server_conninfo() is an error
// that says how to start one: these tests never skip.
#pragma once

#include <string>

#include "base/result.h"

namespace allot::store_test {

// The conninfo of the test server's maintenance database, from ALLOT_TEST_POSTGRES.
Result<std::string> server_conninfo();

class PostgresTestDatabase {
 public:
  // Creates a database with a name of its own (process id and a counter).
  static Result<PostgresTestDatabase> create();
  ~PostgresTestDatabase();
  PostgresTestDatabase(PostgresTestDatabase&& other) noexcept;
  PostgresTestDatabase& operator=(PostgresTestDatabase&&) = delete;
  PostgresTestDatabase(const PostgresTestDatabase&) = delete;
  PostgresTestDatabase& operator=(const PostgresTestDatabase&) = delete;

  // The conninfo of this database.
  [[nodiscard]] const std::string& conninfo() const { return conninfo_; }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  PostgresTestDatabase(std::string server, std::string name);

  std::string server_;  // "" once moved from
  std::string name_;
  std::string conninfo_;
};

}  // namespace allot::store_test
