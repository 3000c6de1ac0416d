#include "store/raw_database.h"

#include <sqlite3.h>

#include "base/check.h"

namespace allot::store_test {

RawDatabase::RawDatabase(const std::string& path) {
  ALLOT_CHECK(sqlite3_open(path.c_str(), &db_) == SQLITE_OK);
}

RawDatabase::~RawDatabase() { sqlite3_close(db_); }

bool RawDatabase::execute(const std::string& sql) {
  return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::string RawDatabase::query_text(const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) return {};
  std::string text;
  if (sqlite3_step(statement) == SQLITE_ROW) {
    const unsigned char* value = sqlite3_column_text(statement, 0);
    if (value != nullptr) text = reinterpret_cast<const char*>(value);
  }
  sqlite3_finalize(statement);
  return text;
}

}  // namespace allot::store_test
