#include "store/postgres_test_database.h"

#include <atomic>
#include <cstdlib>
#include <utility>

#include <unistd.h>

#include "store/postgres/pg_connection.h"

namespace allot::store_test {

Result<std::string> server_conninfo() {
  const char* conninfo = std::getenv("ALLOT_TEST_POSTGRES");
  if (conninfo == nullptr || *conninfo == '\0') {
    return failed_precondition(
        "ALLOT_TEST_POSTGRES is not set: run these tests through ctest (which starts "
        "PostgreSQL with scripts/postgres.sh), or start one and set it to the conninfo printed");
  }
  return std::string(conninfo);
}

Result<PostgresTestDatabase> PostgresTestDatabase::create() {
  static std::atomic<int> counter{0};
  ALLOT_ASSIGN_OR_RETURN(std::string server, server_conninfo());
  const std::string name =
      "allot_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  ALLOT_ASSIGN_OR_RETURN(PgConnection db, PgConnection::connect(server));
  ALLOT_RETURN_IF_ERROR(db.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"));
  // The default WAL_LOG strategy: FILE_COPY forces two checkpoints, three
  // times slower here.
  ALLOT_RETURN_IF_ERROR(db.execute("CREATE DATABASE " + name));
  return PostgresTestDatabase(std::move(server), name);
}

PostgresTestDatabase::PostgresTestDatabase(std::string server, std::string name)
    : server_(std::move(server)), name_(std::move(name)), conninfo_(server_ + " dbname=" + name_) {}

PostgresTestDatabase::PostgresTestDatabase(PostgresTestDatabase&& other) noexcept
    : server_(std::exchange(other.server_, std::string())),
      name_(std::move(other.name_)),
      conninfo_(std::move(other.conninfo_)) {}

PostgresTestDatabase::~PostgresTestDatabase() {
  if (server_.empty()) return;
  Result<PgConnection> db = PgConnection::connect(server_);
  // WITH (FORCE): a connection a test left open does not keep the database.
  if (db.ok()) (void)db->execute("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
}

}  // namespace allot::store_test
