#include "cli/output/human_time.h"

#include <algorithm>
#include <cstdint>

#include "api/rfc3339.h"

namespace allot::cli {
namespace {

std::string two_units(int64_t big, const char* big_unit, int64_t small, const char* small_unit) {
  std::string out = std::to_string(big) + big_unit;
  if (small != 0) out += std::to_string(small) + small_unit;
  return out;
}

}  // namespace

std::optional<Timestamp> parse_api_time(std::string_view text) {
  const Result<Timestamp> at = parse_rfc3339(text);
  if (!at.ok()) return std::nullopt;
  return *at;
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
