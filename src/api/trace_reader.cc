#include "api/trace_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "api/csv_trace.h"
#include "api/philly_trace.h"
#include "api/trace_csv.h"

namespace allot {
namespace {

Status check_trace_path(const std::string& path) {
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
  return {};
}

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

Result<TraceFormat> detect_trace_format(std::string_view text, std::string_view source_name) {
  const size_t end = text.find('\n');
  const std::string_view header = text.substr(0, end == std::string_view::npos ? text.size() : end);
  if (header.find_first_not_of(" \t\r") == std::string_view::npos) {
    return invalid_argument("the trace is empty (no header line)",
                            std::string(source_name) + ": line 1");
  }
  Result<TraceCsv> reader = TraceCsv::open(header, source_name);
  if (reader.ok()) {
    const auto has = [&](std::string_view column) { return reader->column(column).has_value(); };
    if (has("timestamp") && has("num_gpus") && has("cluster")) {
      return TraceFormat::kPhilly;
    }
    if (has("submit_s") && has("gpus") && has("team")) {
      return TraceFormat::kCsv;
    }
  }
  return invalid_argument(
      "cannot tell the trace format from its header (philly: timestamp,...,num_gpus,...,cluster; "
      "csv: submit_s,duration_s,gpus,team); pass --format philly|csv",
      std::string(source_name) + ": line 1");
}

Result<TraceFormat> detect_trace_file_format(const std::string& path) {
  ALLOT_RETURN_IF_ERROR(check_trace_path(path));
  std::ifstream in(path, std::ios::binary);
  std::string header;
  std::getline(in, header);
  if (in.bad() || (!in && !in.eof())) {
    return failed_precondition("cannot read trace file", path);
  }
  return detect_trace_format(header, path);
}

Result<std::vector<TraceJob>> load_trace_file(const std::string& path, TraceFormat format,
                                              const TraceWindow& window) {
  ALLOT_RETURN_IF_ERROR(check_trace_path(path));
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
