// The Logger port (base/logger.h): MemoryLogger keeps what was said, in
// order, with its fields; NullLogger says nothing; both take any thread.
#include "base/logger.h"

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace allot {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

TEST(MemoryLogger, KeepsEntriesInOrderWithTheirFields) {
  MemoryLogger logger;
  const std::string workload = "research/sweep";
  logger.info("workload admitted", {{"workload", workload}, {"gpus", std::to_string(8)}});
  logger.warn("node unhealthy", {{"node", "node-3"}});
  logger.error("store failed");
  const std::vector<LogEntry> entries = logger.entries();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0], (LogEntry{LogLevel::kInfo, "workload admitted",
                                  Fields{{"workload", "research/sweep"}, {"gpus", "8"}}}));
  EXPECT_EQ(entries[0].field("gpus"), "8");
  EXPECT_EQ(entries[0].field("team"), std::nullopt);
  EXPECT_EQ(entries[1].level, LogLevel::kWarn);
  EXPECT_EQ(entries[1].field("node"), "node-3");
  EXPECT_EQ(entries[2], (LogEntry{LogLevel::kError, "store failed", {}}));
  logger.clear();
  EXPECT_TRUE(logger.entries().empty());
}

TEST(MemoryLogger, DropsEntriesBelowItsLevel) {
  MemoryLogger logger(LogLevel::kWarn);
  EXPECT_FALSE(logger.enabled(LogLevel::kDebug));
  EXPECT_FALSE(logger.enabled(LogLevel::kInfo));
  EXPECT_TRUE(logger.enabled(LogLevel::kWarn));
  EXPECT_TRUE(logger.enabled(LogLevel::kError));
  logger.debug("noise");
  logger.info("chatter", {{"k", "v"}});
  logger.error("kept");
  ASSERT_EQ(logger.entries().size(), 1u);
  EXPECT_EQ(logger.entries()[0].message, "kept");
  EXPECT_TRUE(MemoryLogger().enabled(LogLevel::kDebug));  // keeps everything by default
}

TEST(MemoryLogger, CopiesWhatItIsGiven) {
  MemoryLogger logger;
  {
    std::string value = "before";
    logger.info("changed", {{"value", value}});
    value = "after";
  }
  EXPECT_EQ(logger.entries().at(0).field("value"), "before");
}

TEST(MemoryLogger, TakesEntriesFromManyThreadsWhole) {
  MemoryLogger logger;
  constexpr int kThreads = 8;
  constexpr int kEach = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&logger, t] {
      for (int i = 0; i < kEach; ++i) {
        logger.info("tick", {{"thread", std::to_string(t)}, {"i", std::to_string(i)}});
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const std::vector<LogEntry> entries = logger.entries();
  ASSERT_EQ(entries.size(), size_t{kThreads * kEach});
  std::vector<int> next(kThreads, 0);  // each thread's entries arrive in its order
  for (const LogEntry& entry : entries) {
    ASSERT_EQ(entry.fields.size(), 2u);
    const int thread = std::stoi(*entry.field("thread"));
    EXPECT_EQ(std::stoi(*entry.field("i")), next[thread]++);
  }
}

TEST(NullLogger, SaysNothingAndIsNeverEnabled) {
  NullLogger logger;
  Logger& port = logger;
  port.error("ignored", {{"k", "v"}});
  EXPECT_FALSE(port.enabled(LogLevel::kError));
}

TEST(LogLevel, NamesRoundTrip) {
  for (const LogLevel level :
       {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarn, LogLevel::kError}) {
    EXPECT_EQ(*parse_log_level(log_level_name(level)), level);
  }
  EXPECT_EQ(log_level_name(LogLevel::kWarn), "warn");
  EXPECT_EQ(*parse_log_level("warning"), LogLevel::kWarn);
  EXPECT_EQ(parse_log_level("loud").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(parse_log_level("INFO").ok());
}

}  // namespace
}  // namespace allot
