#include "api/philly_trace.h"

#include <cstdint>
#include <string>

#include "api/trace_csv.h"

namespace allot {
namespace {

constexpr int64_t kSecondsPerDay = 86'400;

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
// days_from_civil). REQUIRES: 1 <= month <= 12, 1 <= day <= 31.
int64_t days_from_civil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146'097 + day_of_era - 719'468;
}

bool is_leap(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int64_t days_in_month(int64_t year, int64_t month) {
  constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}

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
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) ||
      hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return bad;
  }
  const int64_t seconds =
      days_from_civil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
  return Timestamp::from_millis(seconds * 1000);
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
