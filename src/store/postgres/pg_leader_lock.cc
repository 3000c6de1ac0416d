#include "store/postgres/pg_leader_lock.h"

#include <thread>
#include <utility>

#include "store/postgres/pg_schema.h"

namespace allot {
namespace {

// pg_try_advisory_lock key of the leadership ("allotldr" in ASCII).
constexpr int64_t kLeaderLockKey = 0x616c6c6f746c6472;

Result<bool> try_lock(PgConnection& db) {
  ALLOT_ASSIGN_OR_RETURN(PgResult result, db.query("SELECT pg_try_advisory_lock($1)",
                                                   PgParams().int64(kLeaderLockKey)));
  return result.rows() == 1 && result.boolean(0, 0);
}

// Raises the term under the lock; the row lock this takes waits for a
// deposed leader's transaction still in flight, whose term check then held
// it (postgres_store.h): that transaction commits before the new term exists.
Result<int64_t> raise_term(PgConnection& db, const std::string& holder) {
  ALLOT_ASSIGN_OR_RETURN(
      PgResult result,
      db.query("UPDATE allot_leader SET term = term + 1, holder = $1, elected_at = now() "
               "WHERE id = 1 RETURNING term",
               PgParams().text(holder)));
  if (result.rows() != 1) {
    return Status(ErrorCode::kInternal, "the store has no allot_leader row");
  }
  return result.int64(0, 0);
}

}  // namespace

Result<PgLeaderLock> PgLeaderLock::acquire(const std::string& conninfo, const std::string& holder,
                                           std::chrono::milliseconds poll,
                                           const std::function<bool()>& should_stop) {
  ALLOT_ASSIGN_OR_RETURN(PgConnection db, PgConnection::connect(conninfo));
  ALLOT_RETURN_IF_ERROR(migrate_postgres_schema(db));
  for (;;) {
    ALLOT_ASSIGN_OR_RETURN(bool locked, try_lock(db));
    if (locked) break;
    if (should_stop()) {
      return Status(ErrorCode::kUnavailable, "stopped while waiting for the leadership");
    }
    std::this_thread::sleep_for(poll);
  }
  ALLOT_ASSIGN_OR_RETURN(int64_t term, raise_term(db, holder));
  return PgLeaderLock(std::move(db), term);
}

Status PgLeaderLock::check() {
  if (connection_.broken()) {
    return failed_precondition("the leadership connection to PostgreSQL was lost");
  }
  Result<PgResult> result = connection_.query("SELECT term FROM allot_leader WHERE id = 1");
  if (!result.ok()) {
    return failed_precondition("the leadership cannot be confirmed: " + result.status().message());
  }
  ALLOT_ASSIGN_OR_RETURN(int64_t term, result->int64(0, 0));
  if (term != term_) {
    return failed_precondition("another allotd took the leadership (term " + std::to_string(term) +
                               ", this one's " + std::to_string(term_) + ")");
  }
  return {};
}

Result<std::string> PgLeaderLock::holder(const std::string& conninfo) {
  ALLOT_ASSIGN_OR_RETURN(PgConnection db, PgConnection::connect(conninfo));
  ALLOT_ASSIGN_OR_RETURN(PgResult result, db.query("SELECT holder FROM allot_leader WHERE id = 1"));
  if (result.rows() != 1) return std::string();
  return result.bytes(0, 0);
}

}  // namespace allot
