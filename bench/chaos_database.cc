#include "bench/chaos_database.h"

#include <utility>

#include <unistd.h>

#include "store/postgres/pg_connection.h"

namespace allot::bench {

Result<ChaosDatabase> ChaosDatabase::create(const std::string& server) {
  const std::string name = "allot_chaos_" + std::to_string(::getpid());
  ALLOT_ASSIGN_OR_RETURN(PgConnection db, PgConnection::connect(server));
  ALLOT_RETURN_IF_ERROR(db.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"));
  ALLOT_RETURN_IF_ERROR(db.execute("CREATE DATABASE " + name));
  return ChaosDatabase(server, name);
}

ChaosDatabase::ChaosDatabase(std::string server, std::string name)
    : server_(std::move(server)), name_(std::move(name)), conninfo_(server_ + " dbname=" + name_) {}

void ChaosDatabase::drop() {
  Result<PgConnection> db = PgConnection::connect(server_);
  if (db.ok()) (void)db->execute("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
}

}  // namespace allot::bench
