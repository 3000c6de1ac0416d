#include "service/audit/audit_log.h"

#include <atomic>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit_test_support.h"
#include "service/audit/audit_files.h"
#include "service/audit/audit_id.h"
#include "service/audit/audit_key.h"
#include "service/audit/audit_range.h"
#include "service/audit/audit_reading.h"

namespace allot::audit {
namespace {

using testing::event_of;
using testing::fresh_folder;
using testing::options_in;

governance::VerificationReport verify(const AuditLogOptions& options, const std::string& key_file) {
  Result<std::string> key = read_audit_public_key(key_file);
  EXPECT_TRUE(key.ok()) << key.status().message();
  Result<governance::VerificationReport> report =
      verify_audit_log(options.dir, options.checkpoint_dir, *key);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return *report;
}

// auditIDs are version 7 UUIDs: the time first, so that later ones sort after
// earlier ones (an outbox row goes to the end of the store's key order).
TEST(AuditId, IsAVersion7UuidOrderedByTime) {
  AuditIdSource ids;
  const std::string early = ids.next(Timestamp::from_millis(1'700'000'000'000));
  const std::string late = ids.next(Timestamp::from_millis(1'700'000'000'001));
  for (const std::string& id : {early, late}) {
    ASSERT_EQ(id.size(), 36u) << id;
    EXPECT_EQ(id[8], '-');
    EXPECT_EQ(id[13], '-');
    EXPECT_EQ(id[14], '7') << id;                                          // version 7
    EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;  // RFC 9562 variant
  }
  // 1,700,000,000,000 ms = 0x18bcfe56800.
  EXPECT_EQ(early.substr(0, 13), "018bcfe5-6800");
  EXPECT_LT(early, late);
  EXPECT_NE(ids.next(Timestamp::from_millis(5)), AuditIdSource().next(Timestamp::from_millis(5)));
}

// The pool of random bytes: one draw per kAuditIdPoolBytes / 10 IDs (not a
// draw, a system call, per request), each byte serving one ID only, so that
// no two IDs of one millisecond share their random bits.
TEST(AuditId, SourceDrawsItsRandomBytesOncePerPoolAndNeverReusesThem) {
  // Draw d, chunk k of 10 bytes: d in its second byte, k in its last four,
  // so that every chunk the source could hand out differs.
  int draws = 0;
  AuditIdSource source([&](size_t count) {
    std::string bytes(count, '\0');
    for (size_t i = 0; i < count; ++i) {
      const size_t in_chunk = i % kAuditIdRandomBytes;
      const size_t chunk = i / kAuditIdRandomBytes;
      if (in_chunk == 1) bytes[i] = static_cast<char>(draws);
      if (in_chunk >= 6) bytes[i] = static_cast<char>((chunk >> (8 * (9 - in_chunk))) & 0xff);
    }
    ++draws;
    return bytes;
  });
  constexpr size_t kPerPool = kAuditIdPoolBytes / kAuditIdRandomBytes;
  const Timestamp at = Timestamp::from_millis(1'700'000'000'000);
  std::set<std::string> ids;
  for (size_t i = 0; i < kPerPool; ++i) ids.insert(source.next(at));
  EXPECT_EQ(draws, 1);
  EXPECT_EQ(ids.size(), kPerPool);
  // The first ID holds the pool's first 10 bytes (zeros), version and variant set.
  EXPECT_EQ(*ids.begin(), audit_id_of(at, std::string(10, '\0')));
  EXPECT_EQ(*ids.begin(), "018bcfe5-6800-7000-8000-000000000000");
  ids.insert(source.next(at));
  EXPECT_EQ(draws, 2);
  EXPECT_EQ(ids.size(), kPerPool + 1);
  for (const std::string& id : ids) {
    ASSERT_EQ(id.size(), 36u) << id;
    EXPECT_EQ(id[14], '7') << id;
    EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;
  }
}

// Records appended without an auditID (the control plane's own events) get
// one from the log's source: each its own, version 7, of the record's time;
// so does a request scope's provisional record (audit_outbox_test.cc).
TEST(AuditId, LogGivesEveryRecordWithoutOneItsOwnId) {
  const std::string root = fresh_folder("ids");
  const AuditLogOptions options = options_in(root);
  ManualClock clock(Timestamp::from_millis(1'700'000'000'000));
  NullLogger logger;
  Result<identity::SigningKey> key = load_or_create_audit_key(root + "/key");
  ASSERT_TRUE(key.ok());
  {
    Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, *key, clock, logger);
    ASSERT_TRUE(log.ok()) << log.status().message();
    for (int i = 0; i < 500; ++i) {
      governance::AuditEvent event = event_of("ana", "create");
      event.audit_id.clear();
      ASSERT_TRUE((*log)->record_async(std::move(event)).ok());
    }
    ASSERT_TRUE((*log)->close().ok());
  }
  std::set<std::string> ids;
  const std::string text = testing::read_file(options.dir + "/" + audit_file_name(1));
  for (size_t at = text.find("\"auditID\":\""); at != std::string::npos;
       at = text.find("\"auditID\":\"", at + 1)) {
    const std::string id = text.substr(at + 11, 36);
    EXPECT_EQ(id.substr(0, 15), "018bcfe5-6800-7") << id;
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 500u);
  EXPECT_TRUE(verify(options, root + "/key.pub").ok());
}

// The chain's SHA-256 (one digest context per thread) against the FIPS 180-2
// vectors, from several threads at once.
TEST(AuditSha256, MatchesTheStandardVectorsOnEveryThread) {
  std::vector<std::thread> threads;
  threads.reserve(4);
  std::atomic<int> right{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&right] {
      for (int i = 0; i < 100; ++i) {
        const bool ok = audit_sha256_hex("abc") ==
                            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" &&
                        audit_sha256_hex("") ==
                            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        if (ok) ++right;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(right.load(), 400);
}

TEST(AuditKey, IsCreatedOwnerOnlyAndRefusedWhenOthersCanRead) {
  const std::string root = fresh_folder("key");
  const std::string path = root + "/audit-key";
  Result<identity::SigningKey> key = load_or_create_audit_key(path);
  ASSERT_TRUE(key.ok()) << key.status().message();
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  Result<identity::SigningKey> again = load_or_create_audit_key(path);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->public_key, key->public_key);
  EXPECT_EQ(*read_audit_public_key(path + ".pub"), key->public_key);
  ::chmod(path.c_str(), 0644);
  Result<identity::SigningKey> refused = load_or_create_audit_key(path);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("chmod 600"), std::string::npos);
}

TEST(AuditLog, CheckpointsEveryNRecordsAndAtClose) {
  const std::string root = fresh_folder("count");
  AuditLogOptions options = options_in(root);
  options.checkpoint_records = 3;
  ManualClock clock(Timestamp::from_millis(1'000'000));
  NullLogger logger;
  Result<identity::SigningKey> key = load_or_create_audit_key(root + "/key");
  ASSERT_TRUE(key.ok());
  {
    Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, *key, clock, logger);
    ASSERT_TRUE(log.ok()) << log.status().message();
    for (int i = 0; i < 7; ++i) ASSERT_TRUE((*log)->record(event_of("ana", "create")).ok());
    const governance::VerificationReport before = verify(options, root + "/key.pub");
    EXPECT_TRUE(before.ok());
    EXPECT_EQ(before.checkpoints, 2u);  // at 3 and 6
    EXPECT_EQ(before.uncovered_tail, 1u);
    clock.advance(Duration::seconds(10));
    ASSERT_TRUE((*log)->checkpoint_if_due().ok());  // due by time
    EXPECT_EQ(verify(options, root + "/key.pub").uncovered_tail, 0u);
    ASSERT_TRUE((*log)->record(event_of("ana", "delete")).ok());
    ASSERT_TRUE((*log)->close().ok());
  }
  const governance::VerificationReport after = verify(options, root + "/key.pub");
  EXPECT_TRUE(after.ok());
  EXPECT_EQ(after.records, 8u);
  EXPECT_EQ(after.checkpoints, 4u);
  EXPECT_EQ(after.uncovered_tail, 0u);
}

TEST(AuditLog, RotatesBySizeAndTheChainContinuesAcrossFilesAndRestarts) {
  const std::string root = fresh_folder("rotate");
  AuditLogOptions options = options_in(root);
  options.max_file_bytes = 1200;  // a few records a file
  ManualClock clock(Timestamp::from_millis(1'000'000));
  NullLogger logger;
  const identity::SigningKey key = *load_or_create_audit_key(root + "/key");
  for (int run = 0; run < 2; ++run) {
    Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
    ASSERT_TRUE(log.ok()) << log.status().message();
    EXPECT_EQ((*log)->head().sequence, static_cast<uint64_t>(run * 10));
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*log)->record(event_of("bo", "create")).ok());
    ASSERT_TRUE((*log)->close().ok());
  }
  const std::vector<std::string> files = *audit_log_files(options.dir);
  EXPECT_GE(files.size(), 4u);
  const governance::VerificationReport report = verify(options, root + "/key.pub");
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 20u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

// Rotation while other requests append and sync at once: a rotation that
// waited for an in-flight sync must not write a line made before it waited
// (another append may have taken that sequence meanwhile).
TEST(AuditLog, ConcurrentAppendsAcrossRotationsKeepOneChain) {
  const std::string root = fresh_folder("rotate-concurrent");
  AuditLogOptions options = options_in(root);
  options.max_file_bytes = 1500;  // a rotation every few records
  ManualClock clock(Timestamp::from_millis(1'000'000));
  NullLogger logger;
  const identity::SigningKey key = *load_or_create_audit_key(root + "/key");
  Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
  ASSERT_TRUE(log.ok()) << log.status().message();
  constexpr int kWriters = 4;
  constexpr int kRecordsEach = 150;
  std::atomic<int> failures = 0;
  std::vector<std::thread> writers;
  writers.reserve(kWriters);
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&log, &failures] {
      for (int i = 0; i < kRecordsEach; ++i) {
        if (!(*log)->record(event_of("bo", "create")).ok()) ++failures;
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ((*log)->head().sequence, static_cast<uint64_t>(kWriters * kRecordsEach));
  ASSERT_TRUE((*log)->close().ok());
  const governance::VerificationReport report = verify(options, root + "/key.pub");
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, static_cast<uint64_t>(kWriters * kRecordsEach));
}

TEST(AuditLog, QueriesFilterByUserVerbNamespaceAndTime) {
  const std::string root = fresh_folder("query");
  const AuditLogOptions options = options_in(root);
  ManualClock clock(Timestamp::from_millis(1'000'000));
  NullLogger logger;
  const identity::SigningKey key = *load_or_create_audit_key(root + "/key");
  Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
  ASSERT_TRUE(log.ok());
  governance::AuditEvent late = event_of("bo", "delete");
  late.stage_time = Timestamp::from_millis(5'000'000);
  ASSERT_TRUE((*log)->record(event_of("ana", "create")).ok());
  ASSERT_TRUE((*log)->record(event_of("bo", "create")).ok());
  ASSERT_TRUE((*log)->record(late).ok());
  AuditQuery query;
  query.user = "bo";
  EXPECT_EQ(query_audit_log(options.dir, query)->size(), 2u);
  query.verb = "delete";
  EXPECT_EQ(query_audit_log(options.dir, query)->size(), 1u);
  query = AuditQuery{};
  query.since = Timestamp::from_millis(4'000'000);
  ASSERT_EQ(query_audit_log(options.dir, query)->size(), 1u);
  EXPECT_NE(query_audit_log(options.dir, query)->front().find("\"verb\":\"delete\""),
            std::string::npos);
  query = AuditQuery{};
  query.namespace_name = "other";
  EXPECT_TRUE(query_audit_log(options.dir, query)->empty());
}

// The evidence export's range read: over rotated files, an hour between
// records, only the files that can hold the period are read line by line,
// every record in [from, to) is found and nothing else; a record a little
// older than the one before it (the outbox's, at a restart) is still found.
TEST(AuditLog, ARangeReadOpensOnlyTheFilesOfItsPeriod) {
  const std::string root = fresh_folder("range");
  AuditLogOptions options = options_in(root);
  options.max_file_bytes = 1200;  // a few records a file
  ManualClock clock(Timestamp::from_millis(1'000'000));
  NullLogger logger;
  const identity::SigningKey key = *load_or_create_audit_key(root + "/key");
  const Timestamp t0 = Timestamp::from_millis(1'800'000'000'000);
  const auto at = [t0](int hour) { return t0 + Duration::hours(hour); };
  {
    Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
    ASSERT_TRUE(log.ok()) << log.status().message();
    for (int hour = 0; hour < 40; ++hour) {
      governance::AuditEvent event = event_of("bo", "create");
      event.audit_id = "h" + std::to_string(hour);
      event.stage_time = at(hour);
      if (hour == 21) event.stage_time = at(20) - Duration::seconds(30);
      ASSERT_TRUE((*log)->record(event).ok());
    }
    ASSERT_TRUE((*log)->close().ok());
  }
  const size_t files = audit_log_files(options.dir)->size();
  ASSERT_GE(files, 10u) << "enough files to skip some";

  std::vector<std::string> ids;
  const auto collect = [&ids](nlohmann::json record) {
    ids.push_back(record.value("auditID", ""));
  };
  Result<AuditRangeRead> read = read_audit_range(options.dir, at(10), at(20), collect);
  ASSERT_TRUE(read.ok()) << read.status().message();
  std::vector<std::string> expected;
  for (int hour = 10; hour < 20; ++hour) expected.push_back("h" + std::to_string(hour));
  expected.push_back("h21");  // stamped 30 s before h20, in file order
  EXPECT_EQ(ids, expected) << "[from, to): 10 to 19, and h21";
  EXPECT_EQ(read->records, 11u);
  EXPECT_EQ(read->files, files);
  EXPECT_LT(read->files_read, files / 2) << "only the files of the period are read";
  EXPECT_GE(read->files_read, 1u);

  // h21 is stamped 30 s before h20 (appended after it): a period of its
  // time finds it, and one of h20's finds h20 (in a file that may end with
  // the older h21).
  ids.clear();
  read = read_audit_range(options.dir, at(20) - Duration::seconds(31),
                          at(20) - Duration::seconds(29), collect);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(ids, std::vector<std::string>{"h21"});
  ids.clear();
  read = read_audit_range(options.dir, at(20), at(20) + Duration::minutes(1), collect);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(ids, std::vector<std::string>{"h20"});

  // The whole log; and a period before it reads no file.
  ids.clear();
  read = read_audit_range(options.dir, at(-1), at(41), collect);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->records, 40u);
  EXPECT_EQ(read->files_read, files);
  ids.clear();
  read = read_audit_range(options.dir, at(-10), at(-5), collect);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(ids.empty());
  EXPECT_EQ(read->files_read, 0u);
}

// A child process writes durable records and reports each acknowledged one
// on a pipe; it is killed with SIGKILL mid-stream. After a torn partial line
// is added (a write cut short), the log reopens: every acknowledged record is
// there, the partial line is cut, and the chain continues and verifies.
TEST(AuditLog, KillDashNineDuringWritesLeavesTheChainIntact) {
  const std::string root = fresh_folder("kill");
  const AuditLogOptions options = options_in(root);
  const identity::SigningKey key = *load_or_create_audit_key(root + "/key");
  int acks[2];
  ASSERT_EQ(::pipe(acks), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(acks[0]);
    SystemClock clock;
    NullLogger logger;
    Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
    if (!log.ok()) ::_exit(2);
    for (uint64_t i = 1;; ++i) {
      if (!(*log)->record(event_of("child", "create")).ok()) ::_exit(3);
      if (::write(acks[1], &i, sizeof i) != sizeof i) ::_exit(4);
    }
  }
  ::close(acks[1]);
  uint64_t acknowledged = 0;
  uint64_t value = 0;
  while (acknowledged < 200 && ::read(acks[0], &value, sizeof value) == sizeof value) {
    acknowledged = value;
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  while (::read(acks[0], &value, sizeof value) == sizeof value) acknowledged = value;
  ::close(acks[0]);
  ASSERT_GE(acknowledged, 200u);
  const std::string newest = audit_log_files(options.dir)->back();
  testing::write_file(newest, testing::read_file(newest) + R"({"sequence":99999,"previ)");
  EXPECT_FALSE(verify(options, root + "/key.pub").ok());  // the torn line is seen

  ManualClock clock(Timestamp::from_millis(1'000'000));
  MemoryLogger logger;
  Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_GE((*log)->head().sequence, acknowledged);
  const std::vector<LogEntry> entries = logger.entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].level, LogLevel::kWarn);
  EXPECT_NE(entries[0].message.find("partial last record"), std::string::npos);
  // Our 24-byte fragment (and whatever the kill itself cut short before it).
  EXPECT_GE(std::stoul(entries[0].field("bytes").value_or("0")), 24u);
  ASSERT_TRUE((*log)->record(event_of("after", "create")).ok());
  ASSERT_TRUE((*log)->close().ok());
  const governance::VerificationReport report = verify(options, root + "/key.pub");
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_GE(report.records, acknowledged + 1);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

// close() while 8 threads append (record, record_async, append_committed):
// it waits for the write under way, so every acknowledged record is in the
// one chain, its last checkpoint covers them all, and no append succeeds
// once close() has returned.
TEST(AuditLog, CloseWhileThreadsAppendWaitsForTheWriteAndRefusesLaterAppends) {
  const std::string root = fresh_folder("close-concurrent");
  AuditLogOptions options = options_in(root);
  options.max_file_bytes = 4096;  // rotations too
  ManualClock clock(Timestamp::from_millis(1'000'000));
  NullLogger logger;
  const identity::SigningKey key = *load_or_create_audit_key(root + "/key");
  Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
  ASSERT_TRUE(log.ok()) << log.status().message();
  constexpr int kThreads = 8;
  std::atomic<bool> close_returned = false;
  std::atomic<uint64_t> acknowledged = 0;
  std::atomic<int> after_close = 0;     // appends that succeeded after close() returned
  std::atomic<int> wrong_refusal = 0;   // a failure that is not kUnavailable
  std::atomic<int> accepted_later = 0;  // a call after the first refusal that succeeded
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t;; ++i) {
        const bool closed_before = close_returned.load();
        Status status;
        if (i % 3 == 0) {
          status = (*log)->record(event_of("ana", "create"));
        } else if (i % 3 == 1) {
          status = (*log)->record_async(event_of("bo", "update"));
        } else {
          status = (*log)->append_committed(event_of("cy", "delete")).status();
        }
        if (!status.ok()) {
          if (status.code() != ErrorCode::kUnavailable) ++wrong_refusal;
          break;
        }
        ++acknowledged;
        if (closed_before) ++after_close;
      }
      if ((*log)->record_async(event_of("late", "create")).ok()) ++accepted_later;
    });
  }
  while ((*log)->written() < 300) std::this_thread::yield();
  const Status closed = (*log)->close();
  close_returned = true;
  for (std::thread& thread : threads) thread.join();
  ASSERT_TRUE(closed.ok()) << closed.message();
  EXPECT_EQ(after_close.load(), 0);
  EXPECT_EQ(wrong_refusal.load(), 0);
  EXPECT_EQ(accepted_later.load(), 0);
  EXPECT_EQ((*log)->head().sequence, acknowledged.load());
  EXPECT_EQ((*log)->checkpointed(), acknowledged.load());
  log->reset();
  const governance::VerificationReport report = verify(options, root + "/key.pub");
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, acknowledged.load());
  EXPECT_EQ(report.uncovered_tail, 0u);
}

// A write() that fails (the next file is /dev/full: ENOSPC) breaks the log:
// the call that saw it and every later one fail, and the log says which
// sequences it lost (a record_async() in another thread may have returned
// for them).
TEST(AuditLog, AFailedWriteLogsTheLostRecordsAndRefusesLaterAppends) {
  const std::string root = fresh_folder("write-fails");
  AuditLogOptions options = options_in(root);
  options.max_file_bytes = 1;  // every record after the first begins a file
  ManualClock clock(Timestamp::from_millis(1'000'000));
  MemoryLogger logger;
  const identity::SigningKey key = *load_or_create_audit_key(root + "/key");
  Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options, key, clock, logger);
  ASSERT_TRUE(log.ok()) << log.status().message();
  ASSERT_TRUE((*log)->record(event_of("ana", "create")).ok());
  std::filesystem::create_symlink("/dev/full", options.dir + "/" + audit_file_name(2));
  const Status lost = (*log)->record_async(event_of("bo", "create"));
  EXPECT_EQ(lost.code(), ErrorCode::kUnavailable);
  EXPECT_EQ((*log)->record_async(event_of("cy", "create")).code(), ErrorCode::kUnavailable);
  EXPECT_EQ((*log)->record(event_of("cy", "create")).code(), ErrorCode::kUnavailable);
  EXPECT_EQ((*log)->append_committed(event_of("cy", "create")).status().code(),
            ErrorCode::kUnavailable);
  const std::vector<LogEntry> entries = logger.entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].level, LogLevel::kError);
  EXPECT_NE(entries[0].message.find("write failed"), std::string::npos);
  EXPECT_EQ(entries[0].field("first_sequence"), "2");
  EXPECT_EQ(entries[0].field("last_sequence"), "2");
  EXPECT_NE(entries[0].field("error").value_or("").find("No space left"), std::string::npos);
  EXPECT_EQ((*log)->close().code(), ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace allot::audit
