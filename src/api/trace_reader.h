// Trace readers: a cluster's job log, in one of the supported formats, read
// into TraceJobs for replay (`allot simulate --trace`).
//
// Formats: `philly` (philly_trace.h) and the generic `csv`
// (csv_trace.h, documented in docs/trace-format.md).
//
// Contract: parse_trace() returns every job in file order, or the first error,
// never part of a trace. Errors are Statuses located by file, line and column:
//   message "not a number 'x'", details "jobs.csv: line 17: column num_gpus".
// A TraceWindow keeps the jobs whose submit time t has from <= t < to (either
// bound may be unset). Time bounds are written as the format writes time:
// for philly a UTC date or date-time ("2017-10-01", "2017-10-01 12:00:00"),
// for csv seconds on the trace's axis ("3600", "1.5", or "2h").
// Pure functions apart from load_trace_file(), which reads one file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/trace_job.h"

namespace allot {

enum class TraceFormat { kPhilly, kCsv };

struct TraceWindow {
  std::optional<Timestamp> from;  // inclusive
  std::optional<Timestamp> to;    // exclusive
};

// "philly" or "csv".
Result<TraceFormat> parse_trace_format(std::string_view name);
// A window bound in the format's notation (see above).
Result<Timestamp> parse_trace_time(std::string_view text, TraceFormat format);

// `source_name` (a file name) starts every error location.
Result<std::vector<TraceJob>> parse_trace(std::string_view text, TraceFormat format,
                                          std::string_view source_name,
                                          const TraceWindow& window = {});
// The format whose header `text` starts with: philly when it has the columns
// timestamp, num_gpus and cluster, csv when it has submit_s, gpus and team;
// otherwise kInvalidArgument located at "source_name: line 1", asking for
// --format.
Result<TraceFormat> detect_trace_format(std::string_view text, std::string_view source_name);
// Reads the first line of `path` and detects its format (as above).
Result<TraceFormat> detect_trace_file_format(const std::string& path);

// Reads and parses `path`; a missing or unreadable file names it.
Result<std::vector<TraceJob>> load_trace_file(const std::string& path, TraceFormat format,
                                              const TraceWindow& window = {});

}  // namespace allot
