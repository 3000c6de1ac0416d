// SpdlogLogger: allotd's Logger (base/logger.h), written with spdlog.
//
// Contract: thread-safe (spdlog's _mt sinks; the level is atomic, and
// set_level() may be called from any thread). Each entry is one line, the
// time in UTC, then the logger's name, the level and the entry's text:
//   2026-11-30T05:00:00.123Z allotd info: workload admitted workload=research/sweep gpus=8
// The text is render_log_line()'s: the message, then each field as key=value
// in the caller's order. A value that is empty or holds a space, '"', '=',
// '\' or a control character is quoted with \" \\ \n \r \t escapes (logfmt),
// so that a line always splits back into its fields. spdlog catches its own
// errors (its error handler reports them on stderr); nothing here throws once
// constructed.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "base/logger.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace allot::app {

class SpdlogLogger final : public Logger {
 public:
  // Writes to stderr: allotd's stdout carries its "listening" line, which
  // tools/allotd_child.h reads, and nothing else.
  static std::unique_ptr<SpdlogLogger> to_stderr(std::string name, LogLevel level);

  // Over any spdlog logger (its sinks and pattern are left as they are).
  SpdlogLogger(std::shared_ptr<spdlog::logger> logger, LogLevel level);

  void set_level(LogLevel level);
  [[nodiscard]] bool enabled(LogLevel level) const override;
  void log(LogLevel level, std::string_view message, std::span<const LogField> fields) override;

 private:
  std::shared_ptr<spdlog::logger> logger_;
};

// "workload admitted workload=research/sweep gpus=8": the text of one entry.
std::string render_log_line(std::string_view message, std::span<const LogField> fields);

}  // namespace allot::app
