// AuditLog: allotd's tamper-evident audit log writer (docs/governance.md).
// JSON lines in DATA/audit/audit-NNNNNN.jsonl in one SHA-256 hash chain
// across files (governance/hash_chain.h), rotated by size, with Ed25519
// checkpoints in their own folder.
//
// Contract:
// - open() creates the folders (0750) or continues the chain of the files
//   there: a last line without its newline (a write that kill -9 or a crash
//   cut short: never acknowledged) is cut off and reported in the log with
//   its size; a last line that is not a record refuses the start (run
//   `allot audit verify`). The checkpoint file's torn tail is cut the same way.
// - record() returns once the record is on disk (written and fdatasync'd;
//   concurrent callers share one sync: group commit): a request's answer is
//   sent after it, so no 2xx goes out without its record. record_async()
//   only appends (the control plane's own events): the next sync covers it.
//   append_committed() appends a record already durable elsewhere (a
//   request's outbox row in the store, audit_outbox.h) without a sync of its
//   own; when a checkpoint is due by count, the timer thread (when started)
//   writes it at once, so that its sync is off the caller's path; without
//   the timer the caller writes it. With the writer started (start_writer),
//   append_committed() leaves its line to the writer thread, which writes
//   the lines appended over `gather` in one write(): the record is durable
//   in its outbox row meanwhile, and a kill -9 before the write loses the
//   line, whose record comes back at start from the row (audit_outbox.h).
//   Every sync (record(), checkpoints, close()), rotation and flush() writes
//   the lines left so first; record_async() and record() never leave theirs.
//   A line is appended to the chain under the lock and written by one
//   write() outside it, together with the lines other threads appended
//   while the write before ran (the thread that finds no write under way
//   writes them all, in chain order; the others return at once). record()
//   and every sync wait for their lines' write first. A failed write or sync
//   fails every later call (kUnavailable), and the call that saw it, and is
//   logged (error) with the range of sequences it lost. So a record_async()
//   may return OK for a line that is then lost (its write fails in another
//   thread): the log is broken from then on, and says which records it lost.
//   An append_committed() whose line another thread was writing may already
//   have returned (its record is durable in the store's outbox row, which
//   stays until a checkpoint covers it, and is appended again at start).
// - A checkpoint (the durable head, signed) is written every
//   `checkpoint_records` records (1..1000) and, from the timer thread
//   (start_timer), every `checkpoint_interval` (at most 10 s) when records
//   were added, and by close() (a clean shutdown). Checkpoints cover synced
//   records only.
// - close() refuses appends from its start, waits for the write under way
//   (every line appended before it), then writes the last checkpoint: when
//   it returns, no write() runs and the checkpoint covers the whole chain.
// - A file that would grow past `max_file_bytes` is closed (synced) and the
//   next one begun; the chain continues.
// Thread-safe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/logger.h"
#include "base/result.h"
#include "governance/audit_event.h"
#include "governance/chain_verifier.h"
#include "governance/hash_chain.h"
#include "identity/credentials/signing_key.h"
#include "service/audit/audit_id.h"

namespace allot::audit {

struct AuditLogOptions {
  std::string dir;             // DATA/audit
  std::string checkpoint_dir;  // DATA/audit-checkpoints
  uint64_t max_file_bytes = 64ull << 20;
  uint64_t checkpoint_records = 1000;                    // clamped to 1..1000
  Duration checkpoint_interval = Duration::seconds(10);  // clamped to at most 10 s
};

class AuditLog {
 public:
  static Result<std::unique_ptr<AuditLog>> open(AuditLogOptions options, identity::SigningKey key,
                                                const Clock& clock, Logger& logger);
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  Status record(governance::AuditEvent event);
  Status record_async(governance::AuditEvent event);
  // Its sequence in the chain.
  Result<uint64_t> append_committed(governance::AuditEvent event);
  // Writes a checkpoint when records were added since the last one and it is
  // due by count or time (or `force`, with records to cover).
  Status checkpoint_if_due(bool force = false);
  // Starts the thread that checks every second whether a checkpoint is due.
  void start_timer();
  // Starts the thread that writes append_committed()'s lines, gathered over
  // `gather` (see the contract). Once, before appends.
  void start_writer(Duration gather);
  // Hands every line appended so far to write(), so that readers of the
  // files (GET /api/v1/audit, evidence) find every answered request's record.
  Status flush();
  // Stops the timer, refuses appends, waits for the write under way, syncs,
  // writes the last checkpoint. Later records fail. Idempotent.
  Status close();

  // The chain's head: the last record appended, whose line may still wait
  // for its write() (and sync). Not a durable head: checkpoints use the
  // synced one. (Callers: tests, after their records were synced or closed.)
  [[nodiscard]] governance::ChainHead head() const;
  // The chain's last sequence (its line may still wait for its write()).
  [[nodiscard]] uint64_t written() const { return written_.load(); }
  // The sequence the last checkpoint covers (0: none).
  [[nodiscard]] uint64_t checkpointed() const { return checkpointed_.load(); }
  // The log's clock (the records' times).
  [[nodiscard]] Timestamp now() const { return clock_.now(); }
  // A new auditID (audit_id.h) for a record received at `at`: records
  // appended without one get one so.
  [[nodiscard]] std::string new_audit_id(Timestamp at) { return ids_.next(at); }
  [[nodiscard]] std::string public_key_hex() const;
  // The Ed25519 signature (hex) of `bytes` with the log's key: a project's
  // evidence report is signed so (server/evidence_routes.cc).
  [[nodiscard]] std::string sign_hex(std::string_view bytes) const;
  // Verifies the log's files and checkpoints as they are on disk with the
  // log's own key (audit_reading.h: verify_audit_log).
  [[nodiscard]] Result<governance::VerificationReport> verify() const;
  [[nodiscard]] const AuditLogOptions& options() const { return options_; }

 private:
  AuditLog(AuditLogOptions options, identity::SigningKey key, const Clock& clock, Logger& logger,
           const governance::ChainHead& head);
  Status open_files(uint64_t file_number, uint64_t file_bytes);
  // `deferred`: left to the writer thread when it runs.
  Result<uint64_t> append(governance::AuditEvent event, bool deferred = false);
  // Writes pending_ (and what is added to it meanwhile) with mu_ let go.
  Status write_pending(std::unique_lock<std::mutex>& lock);
  Status rotate_locked();
  void close_if_retired(int fd);
  Status sync_through(uint64_t sequence);
  Status write_checkpoint(const governance::ChainHead& head);

  AuditLogOptions options_;
  identity::SigningKey key_;
  const Clock& clock_;
  Logger& logger_;
  AuditIdSource ids_;

  mutable std::mutex mu_;
  std::condition_variable synced_cv_;
  governance::AuditChain chain_;
  int fd_ = -1;
  std::vector<int> retired_fds_;  // rotated away while a sync used them
  uint64_t file_number_ = 1;
  uint64_t file_bytes_ = 0;
  std::atomic<uint64_t> written_ = 0;  // the chain's last sequence (set under mu_)
  std::string pending_;                // lines of the chain not yet handed to write()
  std::string spare_;                  // the last batch's buffer, reused
  bool writing_ = false;               // a thread writes pending lines (mu_ let go)
  uint64_t written_to_file_ = 0;       // the last sequence write() took
  governance::ChainHead written_to_file_head_;
  uint64_t synced_ = 0;  // the last sequence on disk
  governance::ChainHead synced_head_;
  bool syncing_ = false;
  bool closed_ = false;
  Status failure_;

  std::mutex checkpoint_mu_;  // before mu_
  int checkpoint_fd_ = -1;
  std::atomic<uint64_t> checkpointed_ = 0;
  Timestamp checkpointed_at_;

  std::mutex timer_mu_;
  std::condition_variable timer_cv_;
  bool timer_stop_ = false;
  bool timer_started_ = false;
  bool checkpoint_wanted_ = false;  // append_committed(): one is due by count
  std::thread timer_;

  // The writer thread (start_writer); its state under mu_.
  std::condition_variable writer_cv_;
  bool writer_started_ = false;
  bool writer_stop_ = false;
  bool write_wanted_ = false;  // deferred lines wait in pending_
  Duration gather_;
  std::thread writer_;
};

}  // namespace allot::audit
