#include "base/time.h"

#include <charconv>
#include <cmath>
#include <string>

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

Status too_large(std::string_view text) {
  return out_of_range("duration '" + std::string(text) + "' is too large");
}

// `number` ("90", "1.5", ".25") of a unit of `factor` ms, in ms. The whole
// part is counted in integers, so that every duration up to Duration::max()
// is exact (a double's 53 bits lost milliseconds beyond 285,000 years); only
// the fraction, below one unit, goes through a double.
Result<int64_t> component_millis(std::string_view number, int64_t factor, std::string_view text) {
  const size_t dot = number.find('.');
  const std::string_view whole = number.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : number.substr(dot + 1);
  if ((whole.empty() && fraction.empty()) || fraction.find('.') != std::string_view::npos) {
    return invalid_argument("malformed number in duration '" + std::string(text) + "'");
  }
  int64_t units = 0;
  if (!whole.empty()) {
    const auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), units);
    if (error == std::errc::result_out_of_range) return too_large(text);
    if (error != std::errc() || end != whole.data() + whole.size()) {
      return invalid_argument("malformed number in duration '" + std::string(text) + "'");
    }
  }
  int64_t millis = 0;
  if (__builtin_mul_overflow(units, factor, &millis)) return too_large(text);
  if (!fraction.empty()) {
    const std::string decimal = "0." + std::string(fraction);
    double part = 0;
    std::from_chars(decimal.data(), decimal.data() + decimal.size(), part);
    if (__builtin_add_overflow(millis, std::llround(part * static_cast<double>(factor)), &millis)) {
      return too_large(text);
    }
  }
  return millis;
}

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
  int64_t total_ms = 0;
  size_t pos = 0;
  bool bare_number = true;
  while (pos < text.size()) {
    const size_t start = pos;
    while (pos < text.size() && is_number_char(text[pos])) ++pos;
    if (start == pos) {
      return invalid_argument("malformed duration '" + std::string(text) +
                              "'; expected a value like 30s, 100ms or 2h");
    }
    const std::string_view number = text.substr(start, pos - start);
    const size_t unit_start = pos;
    while (pos < text.size() && !is_number_char(text[pos])) ++pos;
    std::string_view unit = text.substr(unit_start, pos - unit_start);
    if (unit.empty()) {
      if (!bare_number || pos != text.size()) {
        return invalid_argument("duration '" + std::string(text) + "' is missing a unit");
      }
      unit = "s";
    }
    bare_number = false;
    const int64_t factor = unit_millis(unit);
    if (factor == 0) {
      return invalid_argument("unknown unit '" + std::string(unit) + "' in duration '" +
                              std::string(text) + "'; use ms, s, m, h or d");
    }
    ALLOT_ASSIGN_OR_RETURN(const int64_t millis, component_millis(number, factor, text));
    if (__builtin_add_overflow(total_ms, millis, &total_ms) || total_ms > Duration::max().ms()) {
      return too_large(text);
    }
  }
  return Duration::millis(total_ms);
}

}  // namespace allot
