#include "store/postgres/pg_connection.h"

#include <cstring>
#include <utility>

#include <endian.h>
#include <libpq-fe.h>

namespace allot {
namespace {

// The type OIDs of PostgreSQL's catalog (pg_type.dat); stable across versions.
constexpr unsigned int kByteaOid = 17;
constexpr unsigned int kInt8Oid = 20;
constexpr unsigned int kTextOid = 25;
constexpr int kBinary = 1;

// Notices ("relation already exists, skipping") are not errors: libpq's
// default prints them on stderr.
void ignore_notice(void* /*arg*/, const char* /*message*/) {}

std::string trimmed(const char* text) {
  std::string message = text == nullptr ? "" : text;
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return message;
}

ErrorCode code_of_sqlstate(const std::string& state) {
  if (state == "23505") return ErrorCode::kAlreadyExists;
  if (state == "40001" || state == "40P01" || state.rfind("08", 0) == 0 ||
      state.rfind("57P", 0) == 0) {
    return ErrorCode::kUnavailable;
  }
  if (state.rfind("22", 0) == 0) return ErrorCode::kInvalidArgument;
  return ErrorCode::kInternal;
}

}  // namespace

PgParams& PgParams::add(unsigned int type, std::string value) {
  types_.push_back(type);
  lengths_.push_back(static_cast<int>(value.size()));
  formats_.push_back(kBinary);
  values_.push_back(std::move(value));
  return *this;
}

PgParams& PgParams::text(std::string_view value) { return add(kTextOid, std::string(value)); }

PgParams& PgParams::bytes(std::string_view value) { return add(kByteaOid, std::string(value)); }

PgParams& PgParams::int64(int64_t value) {
  const uint64_t network = htobe64(static_cast<uint64_t>(value));
  std::string raw(sizeof network, '\0');
  std::memcpy(raw.data(), &network, sizeof network);
  return add(kInt8Oid, std::move(raw));
}

std::vector<const char*> PgParams::pointers() const {
  std::vector<const char*> pointers;
  pointers.reserve(values_.size());
  for (const std::string& value : values_) pointers.push_back(value.data());
  return pointers;
}

void PgResult::Clear::operator()(pg_result* result) const { PQclear(result); }

int PgResult::rows() const { return PQntuples(result_.get()); }

std::string PgResult::bytes(int row, int column) const {
  return {PQgetvalue(result_.get(), row, column),
          static_cast<size_t>(PQgetlength(result_.get(), row, column))};
}

Result<int64_t> PgResult::int64(int row, int column) const {
  uint64_t network = 0;
  if (PQgetisnull(result_.get(), row, column) != 0 ||
      PQgetlength(result_.get(), row, column) != static_cast<int>(sizeof network)) {
    return Status(ErrorCode::kInternal, "the store returned a value that is not a bigint",
                  "column " + std::to_string(column));
  }
  std::memcpy(&network, PQgetvalue(result_.get(), row, column), sizeof network);
  return static_cast<int64_t>(be64toh(network));
}

bool PgResult::boolean(int row, int column) const {
  return PQgetlength(result_.get(), row, column) == 1 &&
         *PQgetvalue(result_.get(), row, column) != 0;
}

void PgConnection::Finish::operator()(pg_conn* connection) const { PQfinish(connection); }

Result<PgConnection> PgConnection::connect(const std::string& conninfo) {
  char* parse_error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &parse_error);
  if (options == nullptr) {
    const std::string why = trimmed(parse_error);
    PQfreemem(parse_error);
    return invalid_argument("not a PostgreSQL connection string or URI: " + why, "--store");
  }
  PQconninfoFree(options);
  PgConnection connection(PQconnectdb(conninfo.c_str()));
  if (connection.connection_ == nullptr) {
    return Status(ErrorCode::kUnavailable, "cannot connect to PostgreSQL: out of memory");
  }
  if (PQstatus(connection.connection_.get()) != CONNECTION_OK) {
    return Status(ErrorCode::kUnavailable,
                  "cannot connect to PostgreSQL (" + redacted_conninfo(conninfo) +
                      "): " + trimmed(PQerrorMessage(connection.connection_.get())));
  }
  PQsetNoticeProcessor(connection.connection_.get(), ignore_notice, nullptr);
  return connection;
}

Status PgConnection::error_of(pg_result* result) const {
  if (result == nullptr) {
    return Status(ErrorCode::kUnavailable,
                  "PostgreSQL: " + trimmed(PQerrorMessage(connection_.get())));
  }
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  const std::string sqlstate = state == nullptr ? "" : state;
  const char* primary = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
  const std::string message = trimmed(primary != nullptr ? primary : PQresultErrorMessage(result));
  const ErrorCode code =
      sqlstate.empty() && broken() ? ErrorCode::kUnavailable : code_of_sqlstate(sqlstate);
  return Status(code, "PostgreSQL: " + message,
                sqlstate.empty() ? std::string() : "SQLSTATE " + sqlstate);
}

Status PgConnection::execute(std::string_view sql) {
  PgResult result(PQexec(connection_.get(), std::string(sql).c_str()));
  const ExecStatusType status = PQresultStatus(result.result_.get());
  if (result.result_ != nullptr && (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)) {
    return {};
  }
  return error_of(result.result_.get());
}

Result<PgResult> PgConnection::query(std::string_view sql, const PgParams& params) {
  const std::vector<const char*> values = params.pointers();
  PgResult result(PQexecParams(connection_.get(), std::string(sql).c_str(), params.size(),
                               params.types(), values.data(), params.lengths(), params.formats(),
                               kBinary));
  const ExecStatusType status = PQresultStatus(result.result_.get());
  if (result.result_ != nullptr && (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)) {
    return result;
  }
  return error_of(result.result_.get());
}

bool PgConnection::broken() const { return PQstatus(connection_.get()) != CONNECTION_OK; }

bool PgConnection::in_usable_transaction() const {
  return PQtransactionStatus(connection_.get()) == PQTRANS_INTRANS;
}

Status PgConnection::reset_if_broken() {
  if (!broken()) return {};
  PQreset(connection_.get());
  if (broken()) {
    return Status(ErrorCode::kUnavailable,
                  "PostgreSQL is unreachable: " + trimmed(PQerrorMessage(connection_.get())));
  }
  return {};
}

std::string redacted_conninfo(const std::string& conninfo) {
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), nullptr);
  if (options == nullptr) return "an unparsable connection string";
  std::string text;
  for (const PQconninfoOption* option = options; option->keyword != nullptr; ++option) {
    if (option->val == nullptr || std::strstr(option->keyword, "password") != nullptr) continue;
    if (!text.empty()) text += ' ';
    text += std::string(option->keyword) + "=" + option->val;
  }
  PQconninfoFree(options);
  return text;
}

}  // namespace allot
