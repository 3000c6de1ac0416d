// AuditOutbox: a request's audit record carried in the store's own commit
// (docs/governance.md, "Durability: the record in the store's commit"), so
// that an acknowledged write costs one sync (the store's), not two in series.
//
// Contract:
// - A RequestScope, on the thread that handles one request, holds the
//   request's provisional record (what is known before its answer: who,
//   verb, object, source, the authorizer's decision). The first batch that
//   thread commits through OutboxStore while the scope lives carries it as a
//   row of the store's audit outbox (store.h: an append-only table keyed by
//   a sequence this outbox assigns, growing), in the same transaction as the
//   change: durable with it, or not at all. The row's document is built
//   when the scope opens (with the chain's last sequence then as its
//   afterSequence), so that the commit, which the control plane queues
//   under its exclusive lock, only moves it into the batch.
// - A batch committed with commit() that fails detaches the row (a later
//   commit of the request may carry it). A batch queued with queue_commit()
//   is awaited by the control plane before the request answers, and its
//   failure ends allotd (service/control/cluster_state.h), so once queued it
//   counts as carried.
// - record(): when the scope's row was carried, the final record (with the
//   answer) gets the row's auditID and is appended to the log without a
//   sync of its own (AuditLog::append_committed: synced with the
//   checkpoints, at most 1,000 records or 10 s, and at close); otherwise it
//   is recorded as before, synced before the answer (AuditLog::record).
// - Rows are deleted by range, at no sync of their own: the next batch
//   committed after a checkpoint deletes every row up to the first one whose
//   record is not yet covered by a checkpoint (not appended yet, or appended
//   after it). Rows commit and their records are appended in any order, so
//   the range stops below the oldest row still waiting; a row whose record
//   was never appended (a failed append, after which every request fails)
//   stops the deletes until the restart's recovery.
// - recover(), at start with the rows the store holds: appends, in their
//   commit order, the provisional record of every row whose record is not in
//   the log (allotd stopped between the commit and the append), marked
//   stage "RequestReceived" with a message saying so; syncs and checkpoints
//   the log; then deletes every row. New rows take sequences above the
//   store's floor (StoredState::audit_outbox_floor). Each row names the
//   first workload its batch puts, if any, so that the store may keep it in
//   that workload's row (store.h). Rows of kind "AuditOutbox" in the
//   store's objects (where an allotd before the outbox table kept them) are
//   recovered alike. Sequences of new rows continue after the highest one
//   recovered. A row that does not parse refuses the start.
// Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/logger.h"
#include "base/result.h"
#include "governance/audit_event.h"
#include "service/audit/audit_log.h"
#include "store/store.h"

namespace allot::audit {

inline constexpr std::string_view kAuditOutboxKind = "AuditOutbox";

class AuditOutbox;

class RequestScope {
 public:
  RequestScope(AuditOutbox& outbox, governance::AuditEvent provisional);
  ~RequestScope();
  RequestScope(const RequestScope&) = delete;
  RequestScope& operator=(const RequestScope&) = delete;

  // True once a commit of this request carried its row.
  [[nodiscard]] bool carried() const { return carried_; }
  // The request's record as it was before its answer.
  [[nodiscard]] const governance::AuditEvent& provisional() const { return provisional_; }
  // The same, moved out for the request's final record (finish_audited,
  // once its answer is known, rather than a copy of it): the scope keeps
  // only its auditID, for AuditOutbox::record(). No commit of the request
  // may follow.
  governance::AuditEvent take_provisional();

 private:
  friend class AuditOutbox;
  AuditOutbox& outbox_;
  governance::AuditEvent provisional_;
  bool carried_ = false;
  std::string document_;  // the row's document, built when the scope opened (empty: taken)
  uint64_t row_ = 0;      // the carried row's sequence in the store's outbox
  RequestScope* outer_;   // the scope this one hides on the thread (none: null)
};

// What attach() added to a batch, for settle().
struct OutboxAttachment {
  RequestScope* scope = nullptr;  // the row's request; null: no row
  uint64_t pruned_through = 0;    // the batch's ranged delete; 0: none
  uint64_t pruned_before = 0;     // what had been deleted before it
};

class AuditOutbox {
 public:
  AuditOutbox(AuditLog& log, Logger& logger) : log_(log), logger_(logger) {}

  // Adds the row of the request in scope on this thread (once) and the
  // ranged delete of covered rows to `batch`.
  OutboxAttachment attach(WriteBatch& batch);
  // The outcome of a commit() of that batch: a failure detaches the row and
  // keeps the deletes for a later batch.
  void settle(OutboxAttachment attachment, const Status& outcome);

  // Records the request's final record (see the contract above).
  Status record(const RequestScope* scope, governance::AuditEvent event);

  // At start: `rows` are the rows of the store's outbox, `floor` its
  // StoredState::audit_outbox_floor (new rows go above both), `legacy` its
  // objects of kind AuditOutbox.
  Status recover(const std::vector<AuditOutboxRecord>& rows, uint64_t floor,
                 const std::vector<ObjectRecord>& legacy, Store& store);

  [[nodiscard]] AuditLog& log() { return log_; }
  // How many rows wait for deletion (tests).
  [[nodiscard]] size_t rows_to_prune() const;

 private:
  // A row's record not appended yet: no checkpoint covers it.
  static constexpr uint64_t kNotAppended = std::numeric_limits<uint64_t>::max();
  // A row whose commit failed (not in the store): covered by any checkpoint,
  // so it never stops the range.
  static constexpr uint64_t kDetached = 0;

  // The ranged delete `batch` takes, if any; under mu_.
  void prune_into(WriteBatch& batch, uint64_t covered, OutboxAttachment& attachment);
  // The entry of row sequence `row` in rows_ (null: not there); under mu_.
  uint64_t* row_of(uint64_t row);

  AuditLog& log_;
  Logger& logger_;
  mutable std::mutex mu_;
  uint64_t next_row_ = 1;
  // Rows committed (or being committed) and not yet deleted, in row order
  // from first_row_ (row sequences are assigned in order, one each): the log
  // sequence of each one's record (kNotAppended until it is appended,
  // kDetached for a failed commit's). A deque, not a map: attach() runs
  // under the control plane's exclusive lock, and a push is no allocation.
  std::deque<uint64_t> rows_;
  uint64_t first_row_ = 1;        // the row sequence of rows_.front()
  uint64_t covered_through_ = 0;  // rows up to it are covered: deletable
  uint64_t pruned_through_ = 0;   // rows up to it are deleted (or being deleted)
};

}  // namespace allot::audit
