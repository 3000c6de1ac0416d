// ChaosDatabase: the fresh PostgreSQL database of one chaos run
// (`allot-bench chaos --postgres CONNINFO`), named after the bench's process.
// drop() removes it (the bench keeps it when the run failed, for a look).
// Not thread-safe.
#pragma once

#include <string>

#include "base/result.h"

namespace allot::bench {

class ChaosDatabase {
 public:
  // `server`: the conninfo of a database to connect to for CREATE DATABASE.
  static Result<ChaosDatabase> create(const std::string& server);

  [[nodiscard]] const std::string& conninfo() const { return conninfo_; }
  void drop();

 private:
  ChaosDatabase(std::string server, std::string name);

  std::string server_;
  std::string name_;
  std::string conninfo_;
};

}  // namespace allot::bench
