#include "app/spdlog_logger.h"

#include <utility>

#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace allot::app {
namespace {

spdlog::level::level_enum to_spdlog(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return spdlog::level::debug;
    case LogLevel::kInfo: return spdlog::level::info;
    case LogLevel::kWarn: return spdlog::level::warn;
    case LogLevel::kError: return spdlog::level::err;
  }
  return spdlog::level::err;
}

bool needs_quotes(std::string_view value) {
  if (value.empty()) return true;
  for (const char c : value) {
    if (c == ' ' || c == '"' || c == '=' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ||
        c == '\x7f') {
      return true;
    }
  }
  return false;
}

void append_value(std::string& out, std::string_view value) {
  if (!needs_quotes(value)) {
    out += value;
    return;
  }
  out += '"';
  for (const char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  out += '"';
}

}  // namespace

std::unique_ptr<SpdlogLogger> SpdlogLogger::to_stderr(std::string name, LogLevel level) {
  auto logger = std::make_shared<spdlog::logger>(std::move(name),
                                                 std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_formatter(std::make_unique<spdlog::pattern_formatter>(
      "%Y-%m-%dT%H:%M:%S.%eZ %n %l: %v", spdlog::pattern_time_type::utc));
  return std::make_unique<SpdlogLogger>(std::move(logger), level);
}

SpdlogLogger::SpdlogLogger(std::shared_ptr<spdlog::logger> logger, LogLevel level)
    : logger_(std::move(logger)) {
  set_level(level);
}

void SpdlogLogger::set_level(LogLevel level) { logger_->set_level(to_spdlog(level)); }

bool SpdlogLogger::enabled(LogLevel level) const { return logger_->should_log(to_spdlog(level)); }

void SpdlogLogger::log(LogLevel level, std::string_view message, std::span<const LogField> fields) {
  const spdlog::level::level_enum spdlog_level = to_spdlog(level);
  if (!logger_->should_log(spdlog_level)) return;
  const std::string line = render_log_line(message, fields);
  logger_->log(spdlog_level, spdlog::string_view_t(line.data(), line.size()));
}

std::string render_log_line(std::string_view message, std::span<const LogField> fields) {
  std::string out(message);
  for (const LogField& field : fields) {
    out += ' ';
    out += field.key;
    out += '=';
    append_value(out, field.value);
  }
  return out;
}

}  // namespace allot::app
