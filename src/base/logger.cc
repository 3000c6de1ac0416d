#include "base/logger.h"

namespace allot {

std::string_view log_level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarn: return "warn";
    case LogLevel::kError: return "error";
  }
  return "unknown";
}

Result<LogLevel> parse_log_level(std::string_view text) {
  for (const LogLevel level :
       {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarn, LogLevel::kError}) {
    if (text == log_level_name(level)) return level;
  }
  if (text == "warning") return LogLevel::kWarn;
  return invalid_argument("unknown log level '" + std::string(text) +
                          "'; expected debug, info, warn or error");
}

std::optional<std::string> LogEntry::field(std::string_view key) const {
  for (const auto& [name, value] : fields) {
    if (name == key) return value;
  }
  return std::nullopt;
}

void MemoryLogger::log(LogLevel level, std::string_view message, std::span<const LogField> fields) {
  if (!enabled(level)) return;
  LogEntry entry{level, std::string(message), {}};
  entry.fields.reserve(fields.size());
  for (const LogField& field : fields) entry.fields.emplace_back(field.key, field.value);
  std::lock_guard lock(mu_);
  entries_.push_back(std::move(entry));
}

std::vector<LogEntry> MemoryLogger::entries() const {
  std::lock_guard lock(mu_);
  return entries_;
}

void MemoryLogger::clear() {
  std::lock_guard lock(mu_);
  entries_.clear();
}

}  // namespace allot
