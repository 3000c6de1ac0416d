#include "service/audit/audit_log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "governance/audit_checkpoint.h"
#include "service/audit/audit_files.h"
#include "service/audit/audit_reading.h"

namespace allot::audit {
namespace {

using governance::AuditEvent;
using governance::ChainHead;

// The bytes of a line's header (`{"sequence":N,"previousHash":"<64 hex>"`)
// but N's digits.
constexpr uint64_t kAuditLineHeaderBytes = 12 + 17 + 64 + 1;

Status io_error(const std::string& what, const std::string& path) {
  return Status(ErrorCode::kUnavailable,
                "audit log: " + what + " " + path + ": " + std::strerror(errno));
}

Status make_folder(const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) {
    return Status(ErrorCode::kUnavailable,
                  "audit log: cannot create " + path + ": " + error.message());
  }
  ::chmod(path.c_str(), 0750);
  return {};
}

Status sync_folder(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open folder", path);
  const int rc = ::fsync(fd);
  ::close(fd);
  return rc == 0 ? Status() : io_error("cannot sync folder", path);
}

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return io_error("cannot write", path);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

// The last complete line of `path` (empty: none), cutting off a torn tail.
Result<std::string> last_line_cutting_torn(const std::string& path, Logger& logger) {
  std::string last;
  ALLOT_ASSIGN_OR_RETURN(
      const std::string torn,
      for_each_line(path, [&](uint64_t, std::string_view text) { last = std::string(text); }));
  if (!torn.empty()) {
    const auto size = std::filesystem::file_size(path);
    if (::truncate(path.c_str(), static_cast<off_t>(size - torn.size())) != 0) {
      return io_error("cannot cut the partial last line of", path);
    }
    logger.warn("audit log: cut a partial last record (a write cut short before it was synced)",
                {{"file", path}, {"bytes", std::to_string(torn.size())}});
  }
  return last;
}

struct Recovered {
  ChainHead head;
  uint64_t file_number = 1;
  uint64_t file_bytes = 0;
};

Result<Recovered> recover_chain(const std::string& dir, Logger& logger) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<std::string> files, audit_log_files(dir));
  Recovered recovered;
  if (files.empty()) return recovered;
  const std::string& newest = files.back();
  const std::string name = std::filesystem::path(newest).filename().string();
  recovered.file_number = std::stoull(name.substr(6, name.size() - 12));
  for (auto file = files.rbegin(); file != files.rend(); ++file) {
    ALLOT_ASSIGN_OR_RETURN(const std::string last, last_line_cutting_torn(*file, logger));
    if (file == files.rbegin()) recovered.file_bytes = std::filesystem::file_size(*file);
    if (last.empty()) continue;
    const std::optional<governance::LineHeader> header = governance::parse_line_header(last);
    if (!header) {
      return failed_precondition("audit log: the last line of " + *file +
                                 " is not a record of the log; run `allot audit verify`");
    }
    recovered.head = ChainHead{header->sequence, audit_sha256_hex(last)};
    break;
  }
  return recovered;
}

uint64_t recover_checkpointed(const std::string& path, Logger& logger) {
  if (!std::filesystem::exists(path)) return 0;
  Result<std::string> last = last_line_cutting_torn(path, logger);
  if (!last.ok() || last->empty()) return 0;
  Result<governance::AuditCheckpoint> checkpoint = governance::parse_checkpoint_line(*last);
  return checkpoint.ok() ? checkpoint->sequence : 0;
}

}  // namespace

AuditLog::AuditLog(AuditLogOptions options, identity::SigningKey key, const Clock& clock,
                   Logger& logger, const ChainHead& head)
    : options_(std::move(options)),
      key_(std::move(key)),
      clock_(clock),
      logger_(logger),
      chain_(audit_sha256_hex, head),
      written_(head.sequence),
      written_to_file_(head.sequence),
      written_to_file_head_(head),
      synced_(head.sequence),
      synced_head_(head),
      checkpointed_at_(clock.now()) {}

Result<std::unique_ptr<AuditLog>> AuditLog::open(AuditLogOptions options, identity::SigningKey key,
                                                 const Clock& clock, Logger& logger) {
  options.checkpoint_records = std::clamp<uint64_t>(options.checkpoint_records, 1, 1000);
  options.checkpoint_interval = std::min(options.checkpoint_interval, Duration::seconds(10));
  ALLOT_RETURN_IF_ERROR(make_folder(options.dir));
  ALLOT_RETURN_IF_ERROR(make_folder(options.checkpoint_dir));
  ALLOT_ASSIGN_OR_RETURN(const Recovered recovered, recover_chain(options.dir, logger));
  const std::string checkpoints = options.checkpoint_dir + "/" + std::string(kCheckpointFile);
  const uint64_t checkpointed = recover_checkpointed(checkpoints, logger);
  std::unique_ptr<AuditLog> log(
      new AuditLog(std::move(options), std::move(key), clock, logger, recovered.head));
  log->checkpointed_ = checkpointed;
  ALLOT_RETURN_IF_ERROR(log->open_files(recovered.file_number, recovered.file_bytes));
  return log;
}

Status AuditLog::open_files(uint64_t file_number, uint64_t file_bytes) {
  const std::string path = options_.dir + "/" + audit_file_name(file_number);
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
  if (fd_ < 0) return io_error("cannot open", path);
  file_number_ = file_number;
  file_bytes_ = file_bytes;
  ALLOT_RETURN_IF_ERROR(sync_folder(options_.dir));
  const std::string checkpoints = options_.checkpoint_dir + "/" + std::string(kCheckpointFile);
  checkpoint_fd_ = ::open(checkpoints.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (checkpoint_fd_ < 0) return io_error("cannot open", checkpoints);
  return sync_folder(options_.checkpoint_dir);
}

AuditLog::~AuditLog() {
  // close() again when closed already: it waits for no write under way (it
  // sees closed_ and !writing_ at once) and its checkpoint finds nothing new;
  // so fd_ is never closed under a write().
  (void)close();
  if (fd_ >= 0) ::close(fd_);
  for (const int retired : retired_fds_) ::close(retired);
  if (checkpoint_fd_ >= 0) ::close(checkpoint_fd_);
}

Status AuditLog::rotate_locked() {
  // Only with no write under way (so nothing pending: written_to_file_ is the
  // chain's head). Never lets go of mu_. A sync under way (sync_through,
  // unlocked) still uses the old file: it is closed by that sync, not here.
  const std::string old_path = options_.dir + "/" + audit_file_name(file_number_);
  if (::fdatasync(fd_) != 0) return io_error("cannot sync", old_path);
  synced_ = written_to_file_;
  synced_head_ = written_to_file_head_;
  if (syncing_) {
    retired_fds_.push_back(fd_);
  } else {
    ::close(fd_);
  }
  const std::string path = options_.dir + "/" + audit_file_name(file_number_ + 1);
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
  if (fd_ < 0) return io_error("cannot open", path);
  ++file_number_;
  file_bytes_ = 0;
  synced_cv_.notify_all();
  return sync_folder(options_.dir);
}

Result<uint64_t> AuditLog::append(AuditEvent event, bool deferred) {
  if (event.audit_id.empty()) event.audit_id = ids_.next(clock_.now());
  // The line's body is built before the lock: only its header (sequence,
  // previous hash) and its hash wait for the chain. Into this thread's buffer,
  // reused from one record to the next (the chain copies it into the line).
  thread_local std::string body;
  if (body.capacity() > (64u << 10)) body = std::string();  // not kept after a huge one
  body.clear();
  body.reserve(1024);
  governance::append_audit_line_body(body, event);
  std::unique_lock lock(mu_);
  for (;;) {
    if (closed_) return Status(ErrorCode::kUnavailable, "audit log: closed");
    if (!failure_.ok()) return failure_;
    const uint64_t header_bytes =
        kAuditLineHeaderBytes + std::to_string(chain_.head().sequence + 1).size();
    const uint64_t line_bytes = header_bytes + body.size() + 1;
    if (file_bytes_ == 0 || file_bytes_ + line_bytes <= options_.max_file_bytes) break;
    if (writing_) {
      synced_cv_.wait(lock);  // the lines before this one go to the old file first
      continue;
    }
    if (!pending_.empty()) {
      // Lines left to the writer thread go to the old file first, too.
      ALLOT_RETURN_IF_ERROR(write_pending(lock));
      continue;
    }
    if (Status rotated = rotate_locked(); !rotated.ok()) return failure_ = rotated;
  }
  const size_t pending_before = pending_.size();
  pending_ = chain_.append_body(body, std::move(pending_));
  pending_ += '\n';
  file_bytes_ += pending_.size() - pending_before;
  const uint64_t sequence = chain_.head().sequence;
  written_ = sequence;
  if (writing_) return sequence;  // the thread writing now writes it next
  if (deferred && writer_started_ && !writer_stop_) {
    if (!write_wanted_) {
      write_wanted_ = true;
      writer_cv_.notify_one();
    }
    return sequence;
  }
  ALLOT_RETURN_IF_ERROR(write_pending(lock));
  return sequence;
}

Status AuditLog::write_pending(std::unique_lock<std::mutex>& lock) {
  // One write() for every line appended meanwhile, outside the lock, in
  // chain order: appenders that come while it runs add to pending_ and
  // return; this thread writes them next.
  writing_ = true;
  while (!pending_.empty() && failure_.ok()) {
    std::string batch = std::move(pending_);
    pending_ = std::move(spare_);
    pending_.clear();
    const ChainHead last = chain_.head();
    const int fd = fd_;
    const std::string path = options_.dir + "/" + audit_file_name(file_number_);
    lock.unlock();
    Status written = write_all(fd, batch, path);
    lock.lock();
    spare_ = std::move(batch);
    if (!written.ok()) {
      // The lines of this batch and those appended since are not (wholly)
      // written: a record_async() may have returned for them. They are lost;
      // the log is broken and every later call fails (failure_).
      failure_ = written;
      logger_.error("audit log: a write failed; these records are lost and the log refuses more",
                    {{"first_sequence", std::to_string(written_to_file_ + 1)},
                     {"last_sequence", std::to_string(chain_.head().sequence)},
                     {"error", written.message()}});
      break;
    }
    written_to_file_ = last.sequence;
    written_to_file_head_ = last;
  }
  writing_ = false;
  synced_cv_.notify_all();
  return failure_;
}

void AuditLog::close_if_retired(int fd) {
  const auto retired = std::find(retired_fds_.begin(), retired_fds_.end(), fd);
  if (retired == retired_fds_.end()) return;
  ::close(fd);
  retired_fds_.erase(retired);
}

Status AuditLog::sync_through(uint64_t sequence) {
  std::unique_lock lock(mu_);
  while (synced_ < sequence) {
    if (!failure_.ok()) return failure_;
    if (written_to_file_ < sequence && !writing_ && !pending_.empty()) {
      // Lines left to the writer thread: written here, not waited for.
      ALLOT_RETURN_IF_ERROR(write_pending(lock));
      continue;
    }
    if (syncing_ || written_to_file_ < sequence) {
      // A sync under way, or the line still being written (by the thread
      // that writes the pending lines: it notifies when done).
      synced_cv_.wait(lock);
      continue;
    }
    syncing_ = true;
    const uint64_t target = written_to_file_;
    const ChainHead target_head = written_to_file_head_;
    const int fd = fd_;
    lock.unlock();
    const int rc = ::fdatasync(fd);
    lock.lock();
    syncing_ = false;
    close_if_retired(fd);
    if (rc != 0) {
      failure_ = io_error("cannot sync", options_.dir + "/" + audit_file_name(file_number_));
      logger_.error(
          "audit log: a sync failed; these records may not be on disk and the log "
          "refuses more",
          {{"first_sequence", std::to_string(synced_ + 1)},
           {"last_sequence", std::to_string(target)},
           {"error", failure_.message()}});
    } else if (target > synced_) {
      synced_ = target;
      synced_head_ = target_head;
    }
    synced_cv_.notify_all();
  }
  return {};
}

Status AuditLog::record(AuditEvent event) {
  ALLOT_ASSIGN_OR_RETURN(const uint64_t sequence, append(std::move(event)));
  ALLOT_RETURN_IF_ERROR(sync_through(sequence));
  return checkpoint_if_due();
}

Status AuditLog::record_async(AuditEvent event) {
  // No sync and no checkpoint here: the caller may hold the control plane's
  // state; the next record() or the timer covers it.
  return append(std::move(event)).status();
}

Result<uint64_t> AuditLog::append_committed(AuditEvent event) {
  ALLOT_ASSIGN_OR_RETURN(const uint64_t sequence, append(std::move(event), true));
  if (sequence - checkpointed_.load() < options_.checkpoint_records) return sequence;
  {
    std::lock_guard lock(timer_mu_);
    if (timer_started_ && !timer_stop_) {
      // Due by count: the timer thread syncs and signs it, off the request's path
      // (the sync writes every record since the last one).
      checkpoint_wanted_ = true;
      timer_cv_.notify_all();
      return sequence;
    }
  }
  ALLOT_RETURN_IF_ERROR(checkpoint_if_due());
  return sequence;
}

Status AuditLog::write_checkpoint(const ChainHead& head) {
  governance::AuditCheckpoint checkpoint;
  checkpoint.sequence = head.sequence;
  checkpoint.record_hash = head.hash;
  checkpoint.signed_at = governance::audit_time_text(clock_.now());
  checkpoint.signature = identity::sign_hex(
      key_, governance::checkpoint_payload(checkpoint.sequence, checkpoint.record_hash,
                                           checkpoint.signed_at));
  const std::string path = options_.checkpoint_dir + "/" + std::string(kCheckpointFile);
  ALLOT_RETURN_IF_ERROR(
      write_all(checkpoint_fd_, governance::checkpoint_line(checkpoint) + "\n", path));
  if (::fdatasync(checkpoint_fd_) != 0) return io_error("cannot sync", path);
  checkpointed_ = head.sequence;
  checkpointed_at_ = clock_.now();
  return {};
}

Status AuditLog::checkpoint_if_due(bool force) {
  std::lock_guard checkpoint_lock(checkpoint_mu_);
  uint64_t written = 0;
  {
    std::lock_guard lock(mu_);
    written = written_;
  }
  if (written <= checkpointed_) return {};
  const bool due = force || written - checkpointed_ >= options_.checkpoint_records ||
                   clock_.now() - checkpointed_at_ >= options_.checkpoint_interval;
  if (!due) return {};
  ALLOT_RETURN_IF_ERROR(sync_through(written));
  ChainHead head;
  {
    std::lock_guard lock(mu_);
    head = synced_head_;
  }
  if (head.sequence <= checkpointed_) return {};
  return write_checkpoint(head);
}

void AuditLog::start_timer() {
  std::lock_guard started(timer_mu_);
  timer_started_ = true;
  timer_ = std::thread([this] {
    std::unique_lock lock(timer_mu_);
    for (;;) {
      timer_cv_.wait_for(lock, std::chrono::seconds(1),
                         [&] { return timer_stop_ || checkpoint_wanted_; });
      if (timer_stop_) break;
      checkpoint_wanted_ = false;
      lock.unlock();
      if (Status status = checkpoint_if_due(); !status.ok()) {
        logger_.error("audit log: checkpoint failed", {{"error", status.message()}});
      }
      lock.lock();
    }
  });
}

void AuditLog::start_writer(Duration gather) {
  std::lock_guard lock(mu_);
  if (writer_started_) return;
  writer_started_ = true;
  gather_ = gather;
  writer_ = std::thread([this] {
    std::unique_lock held(mu_);
    for (;;) {
      writer_cv_.wait(held, [this] { return writer_stop_ || write_wanted_; });
      if (writer_stop_) break;
      // Lets the lines of the next `gather` join the first one.
      writer_cv_.wait_for(held, std::chrono::milliseconds(gather_.ms()),
                          [this] { return writer_stop_; });
      write_wanted_ = false;
      // A failure is kept in failure_ (and logged by write_pending).
      if (!writing_ && !pending_.empty()) (void)write_pending(held);
    }
  });
}

Status AuditLog::flush() {
  std::unique_lock lock(mu_);
  // A write under way takes every line pending when it loops again.
  synced_cv_.wait(lock, [this] { return !writing_; });
  if (!failure_.ok()) return failure_;
  if (pending_.empty()) return {};
  return write_pending(lock);
}

Status AuditLog::close() {
  {
    std::lock_guard lock(timer_mu_);
    timer_stop_ = true;
  }
  timer_cv_.notify_all();
  if (timer_.joinable()) timer_.join();
  {
    // The lines the writer thread leaves are written by the checkpoint's sync below.
    std::lock_guard lock(mu_);
    writer_stop_ = true;
  }
  writer_cv_.notify_all();
  if (writer_.joinable()) writer_.join();
  {
    // No append starts from here; the write under way (write_pending, mu_
    // let go) ends with every line appended before, so the checkpoint below
    // covers the whole chain and no write() follows close().
    std::unique_lock lock(mu_);
    closed_ = true;
    synced_cv_.wait(lock, [this] { return !writing_; });
  }
  return checkpoint_if_due(true);
}

ChainHead AuditLog::head() const {
  std::lock_guard lock(mu_);
  return chain_.head();
}

std::string AuditLog::public_key_hex() const { return identity::public_key_text(key_); }

std::string AuditLog::sign_hex(std::string_view bytes) const {
  return identity::sign_hex(key_, bytes);
}

Result<governance::VerificationReport> AuditLog::verify() const {
  return verify_audit_log(options_.dir, options_.checkpoint_dir, key_.public_key);
}

}  // namespace allot::audit
