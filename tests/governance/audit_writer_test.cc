// The audit log's writer thread (AuditLog::start_writer, audit_log.h): the
// lines of append_committed() are written by it, gathered; every sync,
// rotation, flush() and close() writes them first.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "audit_test_support.h"
#include "service/audit/audit_files.h"
#include "service/audit/audit_key.h"
#include "service/audit/audit_reading.h"

namespace allot::audit {
namespace {

using testing::event_of;
using testing::fresh_folder;
using testing::options_in;
using testing::read_file;

// Lines in the log's files as they are on disk now.
size_t lines_on_disk(const AuditLogOptions& options) {
  size_t lines = 0;
  const Result<std::vector<std::string>> files = audit_log_files(options.dir);
  EXPECT_TRUE(files.ok());
  for (const std::string& file : *files) {
    const std::string text = read_file(file);
    lines += static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  }
  return lines;
}

governance::VerificationReport verified(const AuditLogOptions& options, const std::string& root) {
  const Result<std::string> key = read_audit_public_key(root + "/key.pub");
  EXPECT_TRUE(key.ok());
  const Result<governance::VerificationReport> report =
      verify_audit_log(options.dir, options.checkpoint_dir, *key);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return *report;
}

struct OpenLog {
  explicit OpenLog(const std::string& name, uint64_t max_file_bytes = 64ull << 20)
      : root(fresh_folder(name)), options(options_in(root)) {
    options.max_file_bytes = max_file_bytes;
    Result<std::unique_ptr<AuditLog>> opened =
        AuditLog::open(options, *load_or_create_audit_key(root + "/key"), clock, logger);
    EXPECT_TRUE(opened.ok()) << opened.status().message();
    log = std::move(*opened);
  }
  std::string root;
  AuditLogOptions options;
  ManualClock clock{Timestamp::from_millis(1'000'000)};
  NullLogger logger;
  std::unique_ptr<AuditLog> log;
};

// A gather of an hour: within the test, the writer thread never writes.
constexpr Duration kNeverWithinTheTest = Duration::hours(1);

TEST(AuditWriter, CommittedLinesWaitForTheWriterUntilFlushWritesThemInOrder) {
  OpenLog open("writer-flush");
  open.log->start_writer(kNeverWithinTheTest);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(open.log->append_committed(event_of("ana", "create")).ok());
  EXPECT_EQ(open.log->written(), 3u);
  EXPECT_EQ(lines_on_disk(open.options), 0u);  // left to the writer thread
  ASSERT_TRUE(open.log->flush().ok());
  EXPECT_EQ(lines_on_disk(open.options), 3u);
  ASSERT_TRUE(open.log->flush().ok());  // nothing left: nothing more
  EXPECT_EQ(lines_on_disk(open.options), 3u);
  ASSERT_TRUE(open.log->close().ok());
  const governance::VerificationReport report = verified(open.options, open.root);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.records, 3u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

TEST(AuditWriter, ASyncedRecordWritesTheCommittedLinesBeforeIt) {
  OpenLog open("writer-sync");
  open.log->start_writer(kNeverWithinTheTest);
  ASSERT_TRUE(open.log->append_committed(event_of("ana", "create")).ok());
  ASSERT_TRUE(open.log->append_committed(event_of("bo", "create")).ok());
  ASSERT_TRUE(open.log->record(event_of("cy", "delete")).ok());  // synced: all three on disk
  EXPECT_EQ(lines_on_disk(open.options), 3u);
  ASSERT_TRUE(open.log->record_async(event_of("di", "update")).ok());  // never left
  EXPECT_EQ(lines_on_disk(open.options), 4u);
  // In chain order: the left lines first, then the synced one, then the last.
  const Result<std::vector<std::string>> files = audit_log_files(open.options.dir);
  ASSERT_TRUE(files.ok() && !files->empty());
  const std::string text = read_file(files->front());
  const size_t ana = text.find("\"ana\"");
  const size_t bo = text.find("\"bo\"");
  const size_t cy = text.find("\"cy\"");
  const size_t di = text.find("\"di\"");
  ASSERT_NE(di, std::string::npos);
  EXPECT_LT(ana, bo);
  EXPECT_LT(bo, cy);
  EXPECT_LT(cy, di);
  ASSERT_TRUE(open.log->close().ok());
  EXPECT_TRUE(verified(open.options, open.root).ok());
}

TEST(AuditWriter, ACheckpointDueByCountCoversTheCommittedLines) {
  OpenLog open("writer-checkpoint");
  open.log->start_writer(kNeverWithinTheTest);
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(open.log->append_committed(event_of("ana", "create")).ok());
  open.clock.advance(Duration::seconds(10));
  ASSERT_TRUE(open.log->checkpoint_if_due().ok());  // due by time: syncs, so writes first
  EXPECT_EQ(open.log->checkpointed(), 5u);
  const governance::VerificationReport report = verified(open.options, open.root);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.records, 5u);
  EXPECT_EQ(report.uncovered_tail, 0u);
  ASSERT_TRUE(open.log->close().ok());
}

TEST(AuditWriter, RotationWritesTheLeftLinesToTheOldFileFirst) {
  OpenLog open("writer-rotate", 1500);  // a few records a file
  open.log->start_writer(kNeverWithinTheTest);
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(open.log->append_committed(event_of("bo", "create")).ok());
  ASSERT_TRUE(open.log->close().ok());
  const std::vector<std::string> files = *audit_log_files(open.options.dir);
  EXPECT_GE(files.size(), 4u);
  for (const std::string& file : files) EXPECT_LE(std::filesystem::file_size(file), 1500u) << file;
  const governance::VerificationReport report = verified(open.options, open.root);
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 20u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

TEST(AuditWriter, TheWriterThreadWritesWhatWasAppendedOverItsGather) {
  OpenLog open("writer-thread");
  open.log->start_writer(Duration::millis(1));
  for (int i = 0; i < 50; ++i)
    ASSERT_TRUE(open.log->append_committed(event_of("ana", "create")).ok());
  // The thread's own clock (a condition variable's wait), not the log's: polled.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (lines_on_disk(open.options) < 50 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(lines_on_disk(open.options), 50u);
  ASSERT_TRUE(open.log->close().ok());
  EXPECT_TRUE(verified(open.options, open.root).ok());
}

TEST(AuditWriter, ConcurrentCommittedAndSyncedAppendsKeepOneChain) {
  OpenLog open("writer-concurrent", 4000);
  open.log->start_writer(Duration::millis(1));
  std::vector<std::thread> threads;
  std::atomic<int> failures = 0;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        const bool ok = t % 2 == 0 ? open.log->append_committed(event_of("ana", "create")).ok()
                                   : open.log->record(event_of("bo", "update")).ok();
        if (!ok) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_TRUE(open.log->close().ok());
  const governance::VerificationReport report = verified(open.options, open.root);
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 400u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

}  // namespace
}  // namespace allot::audit
