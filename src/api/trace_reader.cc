#include "api/trace_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "api/csv_trace.h"
#include "api/philly_trace.h"

namespace allot {
namespace {

bool in_window(const TraceJob& job, const TraceWindow& window) {
  return (!window.from || job.submit >= *window.from) && (!window.to || job.submit < *window.to);
}

}  // namespace

Result<TraceFormat> parse_trace_format(std::string_view name) {
  if (name == "philly") {
    return TraceFormat::kPhilly;
  }
  if (name == "csv") {
    return TraceFormat::kCsv;
  }
  return invalid_argument("unknown trace format '" + std::string(name) + "' (philly or csv)");
}

Result<Timestamp> parse_trace_time(std::string_view text, TraceFormat format) {
  if (format == TraceFormat::kPhilly) {
    return parse_philly_time(text);
  }
  const bool negative = !text.empty() && text.front() == '-';
  ALLOT_ASSIGN_OR_RETURN(const Duration offset, parse_duration(negative ? text.substr(1) : text));
  return Timestamp::epoch() + (negative ? Duration() - offset : offset);
}

Result<std::vector<TraceJob>> parse_trace(std::string_view text, TraceFormat format,
                                          std::string_view source_name, const TraceWindow& window) {
  Result<std::vector<TraceJob>> jobs = format == TraceFormat::kPhilly
                                           ? parse_philly_trace(text, source_name)
                                           : parse_csv_trace(text, source_name);
  if (!jobs.ok()) {
    return jobs;
  }
  std::erase_if(*jobs, [&](const TraceJob& job) { return !in_window(job, window); });
  return jobs;
}

Result<std::vector<TraceJob>> load_trace_file(const std::string& path, TraceFormat format,
                                              const TraceWindow& window) {
  std::error_code error;
  const std::filesystem::file_status file = std::filesystem::status(path, error);
  if (file.type() == std::filesystem::file_type::not_found) {
    return not_found("trace file not found", path);
  }
  if (error) {
    return failed_precondition("cannot access trace file: " + error.message(), path);
  }
  if (std::filesystem::is_directory(file)) {
    return invalid_argument("expected a trace file, got a directory", path);
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) {
    text << in.rdbuf();
  }
  if (!in || in.bad()) {
    return failed_precondition("cannot read trace file", path);
  }
  return parse_trace(text.str(), format, path, window);
}

}  // namespace allot
