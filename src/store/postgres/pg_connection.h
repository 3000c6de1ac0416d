// PgConnection: one owned libpq connection, and PgResult, one owned result.
//
// Contract:
// - connect() opens a connection from a libpq connection string or URI
//   (`postgres://USER@HOST:PORT/DB?host=/socket/dir`); a server that cannot
//   be reached, refused credentials or a bad string is kUnavailable (or
//   kInvalidArgument for a string libpq cannot parse), with libpq's reason.
//   The password, if the string holds one, never appears in an error.
// - query() sends one statement with parameters and asks for binary results:
//   text columns come back as their bytes, bytea as its bytes, bigint as 8
//   bytes in network order (PgResult::int64 decodes it). execute() runs SQL
//   without parameters or results (several statements may be separated by
//   ';').
// - Errors map SQLSTATE classes to codes: 23505 (unique violation) is
//   kAlreadyExists, class 08 and a lost connection kUnavailable, 40001/40P01
//   kUnavailable (retry), 22 (data exception) kInvalidArgument, the rest
//   kInternal. The message is the server's, the details hold the SQLSTATE.
// - reset_if_broken() reconnects a connection whose socket was lost, so that
//   a restarted server is used again; it is a no-op on a good connection.
// Thread-compatible: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/status.h"

struct pg_conn;
struct pg_result;

namespace allot {

// The parameters of one statement, all sent in binary format.
class PgParams {
 public:
  PgParams& text(std::string_view value);   // text: its UTF-8 bytes
  PgParams& bytes(std::string_view value);  // bytea: any bytes
  PgParams& int64(int64_t value);           // bigint

  [[nodiscard]] int size() const { return static_cast<int>(values_.size()); }
  [[nodiscard]] const unsigned int* types() const { return types_.data(); }
  [[nodiscard]] std::vector<const char*> pointers() const;
  [[nodiscard]] const int* lengths() const { return lengths_.data(); }
  [[nodiscard]] const int* formats() const { return formats_.data(); }

 private:
  PgParams& add(unsigned int type, std::string value);

  std::vector<std::string> values_;
  std::vector<unsigned int> types_;
  std::vector<int> lengths_;
  std::vector<int> formats_;
};

class PgResult {
 public:
  [[nodiscard]] int rows() const;
  // The bytes of a text or bytea column in binary format.
  [[nodiscard]] std::string bytes(int row, int column) const;
  // A bigint column (8 bytes, network order); kInternal when it is not one.
  [[nodiscard]] Result<int64_t> int64(int row, int column) const;
  // A boolean column (1 byte).
  [[nodiscard]] bool boolean(int row, int column) const;

 private:
  friend class PgConnection;
  struct Clear {
    void operator()(pg_result* result) const;
  };
  explicit PgResult(pg_result* result) : result_(result) {}
  std::unique_ptr<pg_result, Clear> result_;
};

class PgConnection {
 public:
  static Result<PgConnection> connect(const std::string& conninfo);

  Status execute(std::string_view sql);
  Result<PgResult> query(std::string_view sql, const PgParams& params = PgParams());
  [[nodiscard]] bool broken() const;
  // True inside a transaction that can still commit (not aborted by an error).
  [[nodiscard]] bool in_usable_transaction() const;
  // Reconnects when broken(); kUnavailable when the server still cannot be reached.
  Status reset_if_broken();

 private:
  struct Finish {
    void operator()(pg_conn* connection) const;
  };
  explicit PgConnection(pg_conn* connection) : connection_(connection) {}
  Status error_of(pg_result* result) const;
  std::unique_ptr<pg_conn, Finish> connection_;
};

// The connection string without its password, for logs and errors.
std::string redacted_conninfo(const std::string& conninfo);

}  // namespace allot
