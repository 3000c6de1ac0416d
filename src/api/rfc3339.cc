#include "api/rfc3339.h"

#include <cstdint>
#include <cstdio>
#include <ctime>

namespace allot {
namespace {

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil):
// timegm() is not in POSIX and depends on the process's locale settings.
int64_t days_from_civil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

int64_t days_in_month(int64_t year, int64_t month) {
  constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

bool read_digits(std::string_view text, size_t& pos, size_t count, int64_t& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (size_t i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += count;
  return true;
}

bool expect(std::string_view text, size_t& pos, char c) {
  if (pos >= text.size() || (text[pos] != c && !(c == 'T' && text[pos] == 't'))) return false;
  ++pos;
  return true;
}

}  // namespace

std::string format_rfc3339(Timestamp at) {
  const int64_t ms = at.ms();
  const auto seconds = static_cast<time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  const int64_t millis = ms - static_cast<int64_t>(seconds) * 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis));
  return buffer;
}

Result<Timestamp> parse_rfc3339(std::string_view text) {
  size_t pos = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  const bool fields_ok = read_digits(text, pos, 4, year) && expect(text, pos, '-') &&
                         read_digits(text, pos, 2, month) && expect(text, pos, '-') &&
                         read_digits(text, pos, 2, day) && expect(text, pos, 'T') &&
                         read_digits(text, pos, 2, hour) && expect(text, pos, ':') &&
                         read_digits(text, pos, 2, minute) && expect(text, pos, ':') &&
                         read_digits(text, pos, 2, second);
  const auto bad = [&] {
    return invalid_argument("malformed time '" + std::string(text) +
                            "'; expected RFC 3339, e.g. 2026-11-30T05:00:00Z");
  };
  if (!fields_ok || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) ||
      hour > 23 || minute > 59 || second > 60) {
    return bad();
  }
  int64_t millis = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int64_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 3) millis = millis * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return bad();
    for (int64_t d = digits; d < 3; ++d) millis *= 10;
  }
  int64_t offset_minutes = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int64_t sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t off_hours = 0, off_minutes = 0;
    if (!read_digits(text, pos, 2, off_hours) || !expect(text, pos, ':') ||
        !read_digits(text, pos, 2, off_minutes)) {
      return bad();
    }
    offset_minutes = sign * (off_hours * 60 + off_minutes);
  } else {
    return bad();
  }
  if (pos != text.size()) return bad();
  const int64_t days = days_from_civil(year, month, day);
  const int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
  return Timestamp::from_millis(seconds * 1000 + millis);
}

}  // namespace allot
