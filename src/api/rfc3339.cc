#include "api/rfc3339.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "api/civil_time.h"

namespace allot {
namespace {

// The times RFC 3339 can write: four-digit years.
constexpr int64_t kFirstMillis = -62'167'219'200'000;  // 0000-01-01T00:00:00.000Z
constexpr int64_t kLastMillis = 253'402'300'799'999;   // 9999-12-31T23:59:59.999Z

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
  const int64_t ms = std::clamp(at.ms(), kFirstMillis, kLastMillis);
  const int64_t seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
  const int64_t millis = ms - seconds * 1000;
  const CivilTime utc = civil_from_unix_seconds(seconds);
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.year, utc.month,
                utc.day, utc.hour, utc.minute, utc.second, static_cast<int>(millis));
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
  if (!fields_ok) return bad();
  const Result<int64_t> local_seconds =
      to_unix_seconds({static_cast<int>(year), static_cast<int>(month), static_cast<int>(day),
                       static_cast<int>(hour), static_cast<int>(minute), static_cast<int>(second)});
  if (!local_seconds.ok()) return bad();
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
  const int64_t seconds = *local_seconds - offset_minutes * 60;
  return Timestamp::from_millis(seconds * 1000 + millis);
}

}  // namespace allot
