#include "cli/human_time.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>

namespace allot::cli {
namespace {

// Reads exactly `digits` decimal digits at `pos`, advancing it.
std::optional<int> read_digits(std::string_view text, size_t& pos, size_t digits) {
  if (pos + digits > text.size()) return std::nullopt;
  int value = 0;
  const char* begin = text.data() + pos;
  const auto [stop, error] = std::from_chars(begin, begin + digits, value);
  if (error != std::errc() || stop != begin + digits) return std::nullopt;
  pos += digits;
  return value;
}

bool expect(std::string_view text, size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

// Milliseconds of an optional ".ddd..." fraction (truncated).
int64_t read_fraction(std::string_view text, size_t& pos) {
  if (pos >= text.size() || text[pos] != '.') return 0;
  ++pos;
  int64_t millis = 0;
  int taken = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (taken < 3) {
      millis = millis * 10 + (text[pos] - '0');
      ++taken;
    }
    ++pos;
  }
  for (; taken < 3; ++taken) millis *= 10;
  return millis;
}

// The offset east of UTC in minutes ("Z", "+02:00", "-05:30").
std::optional<int> read_offset(std::string_view text, size_t& pos) {
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
    return 0;
  }
  if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return std::nullopt;
  const int sign = text[pos] == '-' ? -1 : 1;
  ++pos;
  const std::optional<int> hours = read_digits(text, pos, 2);
  if (!hours || !expect(text, pos, ':')) return std::nullopt;
  const std::optional<int> minutes = read_digits(text, pos, 2);
  if (!minutes) return std::nullopt;
  return sign * (*hours * 60 + *minutes);
}

std::string two_units(int64_t big, const char* big_unit, int64_t small, const char* small_unit) {
  std::string out = std::to_string(big) + big_unit;
  if (small != 0) out += std::to_string(small) + small_unit;
  return out;
}

}  // namespace

std::optional<Timestamp> parse_api_time(std::string_view text) {
  size_t pos = 0;
  const std::optional<int> year = read_digits(text, pos, 4);
  if (!year || !expect(text, pos, '-')) return std::nullopt;
  const std::optional<int> month = read_digits(text, pos, 2);
  if (!month || !expect(text, pos, '-')) return std::nullopt;
  const std::optional<int> day = read_digits(text, pos, 2);
  if (!day || pos >= text.size() || (text[pos] != 'T' && text[pos] != 't')) return std::nullopt;
  ++pos;
  const std::optional<int> hour = read_digits(text, pos, 2);
  if (!hour || !expect(text, pos, ':')) return std::nullopt;
  const std::optional<int> minute = read_digits(text, pos, 2);
  if (!minute || !expect(text, pos, ':')) return std::nullopt;
  const std::optional<int> second = read_digits(text, pos, 2);
  if (!second) return std::nullopt;
  const int64_t millis = read_fraction(text, pos);
  const std::optional<int> offset = read_offset(text, pos);
  if (!offset || pos != text.size()) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(*year),
                                         std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok() || *hour > 23 || *minute > 59 || *second > 60) return std::nullopt;
  const int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  const int64_t seconds = days * 86'400 + int64_t{*hour} * 3'600 + int64_t{*minute} * 60 + *second -
                          int64_t{*offset} * 60;
  return Timestamp::from_millis(seconds * 1'000 + millis);
}

// kubectl's HumanDuration (k8s.io/apimachinery/pkg/util/duration).
std::string format_age(Duration age) {
  const int64_t seconds = std::max<int64_t>(0, age.ms() / 1'000);
  if (seconds < 120) return std::to_string(seconds) + "s";
  const int64_t minutes = seconds / 60;
  if (minutes < 10) return two_units(minutes, "m", seconds % 60, "s");
  if (minutes < 180) return std::to_string(minutes) + "m";
  const int64_t hours = minutes / 60;
  if (hours < 8) return two_units(hours, "h", minutes % 60, "m");
  if (hours < 48) return std::to_string(hours) + "h";
  constexpr int64_t kHoursPerDay = 24;
  constexpr int64_t kHoursPerYear = kHoursPerDay * 365;
  const int64_t days = hours / kHoursPerDay;
  if (hours < kHoursPerDay * 8) return two_units(days, "d", hours % kHoursPerDay, "h");
  if (hours < kHoursPerYear * 2) return std::to_string(days) + "d";
  if (hours < kHoursPerYear * 8) return two_units(days / 365, "y", days % 365, "d");
  return std::to_string(days / 365) + "y";
}

std::string age_of(const nlohmann::json* time_value, Timestamp now) {
  if (time_value == nullptr || !time_value->is_string()) return "<unknown>";
  const std::optional<Timestamp> at = parse_api_time(time_value->get<std::string>());
  return at ? format_age(now - *at) : "<unknown>";
}

}  // namespace allot::cli
