#include "base/time.h"

#include <charconv>
#include <cmath>

namespace allot {
namespace {

// Milliseconds in one unit, or 0 when the unit is unknown.
int64_t unit_millis(std::string_view unit) {
  if (unit == "ms") return 1;
  if (unit == "s") return 1000;
  if (unit == "m") return 60'000;
  if (unit == "h") return 3'600'000;
  if (unit == "d") return 86'400'000;
  return 0;
}

bool is_number_char(char c) { return (c >= '0' && c <= '9') || c == '.'; }

}  // namespace

std::string Duration::to_string() const {
  if (ms_ == 0) return "0s";
  std::string out;
  int64_t rest = ms_;
  if (rest < 0) {
    out = "-";
    rest = -rest;
  }
  const struct {
    int64_t millis;
    const char* unit;
  } units[] = {{3'600'000, "h"}, {60'000, "m"}, {1000, "s"}, {1, "ms"}};
  for (const auto& u : units) {
    if (rest >= u.millis) {
      out += std::to_string(rest / u.millis) + u.unit;
      rest %= u.millis;
    }
  }
  return out;
}

Result<Duration> parse_duration(std::string_view text) {
  if (text.empty()) {
    return invalid_argument("empty duration; expected a value like 30s, 100ms or 2h");
  }
  double total_ms = 0;
  size_t pos = 0;
  bool bare_number = true;
  while (pos < text.size()) {
    size_t start = pos;
    while (pos < text.size() && is_number_char(text[pos])) ++pos;
    if (start == pos) {
      return invalid_argument("malformed duration '" + std::string(text) +
                              "'; expected a value like 30s, 100ms or 2h");
    }
    double number = 0;
    auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + pos, number);
    if (ec != std::errc() || ptr != text.data() + pos) {
      return invalid_argument("malformed number in duration '" + std::string(text) + "'");
    }
    size_t unit_start = pos;
    while (pos < text.size() && !is_number_char(text[pos])) ++pos;
    std::string_view unit = text.substr(unit_start, pos - unit_start);
    if (unit.empty()) {
      if (!bare_number || pos != text.size()) {
        return invalid_argument("duration '" + std::string(text) + "' is missing a unit");
      }
      unit = "s";
    }
    bare_number = false;
    int64_t factor = unit_millis(unit);
    if (factor == 0) {
      return invalid_argument("unknown unit '" + std::string(unit) + "' in duration '" +
                              std::string(text) + "'; use ms, s, m, h or d");
    }
    total_ms += number * static_cast<double>(factor);
  }
  if (total_ms > static_cast<double>(Duration::max().ms())) {
    return out_of_range("duration '" + std::string(text) + "' is too large");
  }
  return Duration::millis(std::llround(total_ms));
}

}  // namespace allot
