// PgLeaderLock: leader election among allotd instances that share one
// PostgreSQL database, with a fencing term.
//
// Contract:
// - acquire() connects on a connection of its own, migrates the schema
//   (pg_schema.h), then polls pg_try_advisory_lock every `poll` until it
//   holds the lock or `should_stop()` is true (then kUnavailable, "stopped").
//   Once it holds the lock it raises allot_leader.term by one and records
//   `holder`; the new term is the fencing token that PostgresStore checks in
//   every transaction (a deposed leader's commits fail, see postgres_store.h).
// - The lock is a session lock: PostgreSQL releases it when the connection
//   ends, so a leader killed with SIGKILL frees it as soon as the server sees
//   its socket close, and a standby polling every `poll` takes over within
//   `poll` of that.
// - check() is OK while this instance still leads: its connection is alive
//   and the term is still its own. It never reconnects: a lost connection
//   means a lost lock, and leadership is never silently re-taken.
// - holder() reads who leads now (for a standby's /readyz).
// Thread-compatible: one thread at a time (allotd's leadership watch).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "base/result.h"
#include "base/status.h"
#include "store/postgres/pg_connection.h"

namespace allot {

class PgLeaderLock {
 public:
  static Result<PgLeaderLock> acquire(const std::string& conninfo, const std::string& holder,
                                      std::chrono::milliseconds poll,
                                      const std::function<bool()>& should_stop);

  [[nodiscard]] int64_t term() const { return term_; }
  Status check();

  // Who holds the leadership now, as recorded by the last leader ("" before
  // the first), read on a short connection of its own.
  static Result<std::string> holder(const std::string& conninfo);

 private:
  PgLeaderLock(PgConnection connection, int64_t term)
      : connection_(std::move(connection)), term_(term) {}

  PgConnection connection_;
  int64_t term_;
};

}  // namespace allot
