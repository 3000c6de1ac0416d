// Logger: the port through which allot says what operators read (startup,
// decisions, failures). base names it; app/ chooses the implementation
// (spdlog in allotd, app/spdlog_logger.h) and injects it; tests hold a
// MemoryLogger and read back what was said; NullLogger says nothing.
//
// Contract: implementations are thread-safe: any thread may log at any time,
// and an entry is written whole, never interleaved with another. Logging never
// fails, never throws and never blocks on anything but the output itself.
// An entry is a level (debug < info < warn < error), a message and structured
// fields: key/value string pairs, kept in the caller's order. A message is a
// short fixed phrase ("workload admitted"); what varies goes into fields
// ({"workload", "research/sweep"}, {"gpus", "8"}), so that logs can be searched
// and parsed. Keys are snake_case words. An entry below the logger's level is
// dropped; enabled() lets a caller skip building costly fields.
//
// Callers never pass secrets (tokens, passwords, private keys, credentials,
// or a whole request body or environment that may carry them) in a message or
// a field: a logger writes what it is given, and logs are read by more people,
// and kept longer, than the data they describe.
//
// LogField views the caller's strings for the duration of the call only; a
// logger that keeps an entry copies it (MemoryLogger's LogEntry).
#pragma once

#include <initializer_list>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace allot {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

// "debug", "info", "warn", "error".
std::string_view log_level_name(LogLevel level);
// The inverse of log_level_name (also "warning"); invalid_argument otherwise.
Result<LogLevel> parse_log_level(std::string_view text);

struct LogField {
  std::string_view key;
  std::string_view value;
};

class Logger {
 public:
  virtual ~Logger() = default;

  // Whether an entry at `level` would be written.
  [[nodiscard]] virtual bool enabled(LogLevel level) const = 0;
  virtual void log(LogLevel level, std::string_view message, std::span<const LogField> fields) = 0;

  void debug(std::string_view message, std::initializer_list<LogField> fields = {}) {
    log(LogLevel::kDebug, message, {fields.begin(), fields.size()});
  }
  void info(std::string_view message, std::initializer_list<LogField> fields = {}) {
    log(LogLevel::kInfo, message, {fields.begin(), fields.size()});
  }
  void warn(std::string_view message, std::initializer_list<LogField> fields = {}) {
    log(LogLevel::kWarn, message, {fields.begin(), fields.size()});
  }
  void error(std::string_view message, std::initializer_list<LogField> fields = {}) {
    log(LogLevel::kError, message, {fields.begin(), fields.size()});
  }
};

// Drops every entry.
class NullLogger final : public Logger {
 public:
  [[nodiscard]] bool enabled(LogLevel /*level*/) const override { return false; }
  void log(LogLevel /*level*/, std::string_view /*message*/,
           std::span<const LogField> /*fields*/) override {}
};

// One entry as a MemoryLogger keeps it.
struct LogEntry {
  LogLevel level = LogLevel::kInfo;
  std::string message;
  std::vector<std::pair<std::string, std::string>> fields;  // in the caller's order

  // The value of the first field named `key`, or nullopt.
  [[nodiscard]] std::optional<std::string> field(std::string_view key) const;

  friend bool operator==(const LogEntry&, const LogEntry&) = default;
};

// Keeps every entry at or above its level, in the order logged (for tests).
class MemoryLogger final : public Logger {
 public:
  explicit MemoryLogger(LogLevel level = LogLevel::kDebug) : level_(level) {}

  [[nodiscard]] bool enabled(LogLevel level) const override { return level >= level_; }
  void log(LogLevel level, std::string_view message, std::span<const LogField> fields) override;

  // A copy of the entries so far.
  [[nodiscard]] std::vector<LogEntry> entries() const;
  void clear();

 private:
  const LogLevel level_;
  mutable std::mutex mu_;
  std::vector<LogEntry> entries_;  // guarded by mu_
};

}  // namespace allot
