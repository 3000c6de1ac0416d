#include "api/philly_trace.h"

#include <cstdint>
#include <string>

#include "api/civil_time.h"
#include "api/trace_csv.h"

namespace allot {
namespace {

// Reads `width` digits at `pos`, or -1 when they are not all digits.
int64_t digits(std::string_view text, size_t pos, size_t width) {
  int64_t value = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return -1;
    }
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool has_separators(std::string_view text) {
  if (text[4] != '-' || text[7] != '-') {
    return false;
  }
  return text.size() == 10 || (text[10] == ' ' && text[13] == ':' && text[16] == ':');
}

}  // namespace

Result<Timestamp> parse_philly_time(std::string_view text) {
  const Status bad = invalid_argument("not a time 'YYYY-MM-DD HH:MM:SS' or date 'YYYY-MM-DD': '" +
                                      std::string(text) + "'");
  if ((text.size() != 10 && text.size() != 19) || !has_separators(text)) {
    return bad;
  }
  const int64_t year = digits(text, 0, 4);
  const int64_t month = digits(text, 5, 2);
  const int64_t day = digits(text, 8, 2);
  const bool with_time = text.size() == 19;
  const int64_t hour = with_time ? digits(text, 11, 2) : 0;
  const int64_t minute = with_time ? digits(text, 14, 2) : 0;
  const int64_t second = with_time ? digits(text, 17, 2) : 0;
  // digits() is -1 for a non-digit; a trace has no leap seconds.
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || second > 59) {
    return bad;
  }
  const Result<int64_t> seconds =
      to_unix_seconds({static_cast<int>(year), static_cast<int>(month), static_cast<int>(day),
                       static_cast<int>(hour), static_cast<int>(minute), static_cast<int>(second)});
  if (!seconds.ok()) return bad;
  return Timestamp::from_millis(*seconds * 1000);
}

Result<std::vector<TraceJob>> parse_philly_trace(std::string_view text,
                                                 std::string_view source_name) {
  ALLOT_ASSIGN_OR_RETURN(TraceCsv reader, TraceCsv::open(text, source_name));
  ALLOT_ASSIGN_OR_RETURN(const size_t timestamp, reader.required_column("timestamp"));
  ALLOT_ASSIGN_OR_RETURN(const size_t duration, reader.required_column("duration"));
  ALLOT_ASSIGN_OR_RETURN(const size_t num_gpus, reader.required_column("num_gpus"));
  ALLOT_ASSIGN_OR_RETURN(const size_t cluster, reader.required_column("cluster"));
  std::vector<TraceJob> jobs;
  while (true) {
    ALLOT_ASSIGN_OR_RETURN(const bool more, reader.next_row());
    if (!more) {
      return jobs;
    }
    TraceJob job;
    job.line = reader.line();
    Result<Timestamp> submit = parse_philly_time(reader.text(timestamp));
    if (!submit.ok()) {
      return reader.field_error(timestamp, submit.status().message());
    }
    job.submit = *submit;
    ALLOT_ASSIGN_OR_RETURN(const int64_t duration_ms, reader.millis(duration, false));
    job.duration = Duration::millis(duration_ms);
    ALLOT_ASSIGN_OR_RETURN(job.gpus, reader.count(num_gpus));
    job.team = std::string(reader.text(cluster));
    if (job.team.empty()) {
      return reader.field_error(cluster, "missing value");
    }
    jobs.push_back(std::move(job));
  }
}

}  // namespace allot
