#include "api/civil_time.h"

#include <chrono>
#include <cstdio>
#include <string>

#include "base/check.h"

namespace allot {
namespace {

namespace chrono = std::chrono;

constexpr int64_t kSecondsPerDay = 86'400;

constexpr int64_t days_since_epoch(chrono::year_month_day date) {
  return chrono::sys_days(date).time_since_epoch().count();
}

static_assert(kMinCivilUnixSeconds ==
              days_since_epoch(chrono::year::min() / chrono::January / 1) * kSecondsPerDay);
static_assert(kMaxCivilUnixSeconds ==
              (days_since_epoch(chrono::year::max() / chrono::December / 31) + 1) * kSecondsPerDay -
                  1);

std::string date_text(const CivilTime& civil) {
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d", civil.year, civil.month,
                civil.day, civil.hour, civil.minute, civil.second);
  return buffer;
}

}  // namespace

Result<int64_t> to_unix_seconds(const CivilTime& civil) {
  // chrono::year, month and day keep only the low bits of what they are
  // given, so the ranges are checked before they are built.
  const bool in_range = civil.year >= static_cast<int>(chrono::year::min()) &&
                        civil.year <= static_cast<int>(chrono::year::max()) && civil.month >= 1 &&
                        civil.month <= 12 && civil.day >= 1 && civil.day <= 31;
  const chrono::year_month_day date =
      in_range ? chrono::year(civil.year) / chrono::month(static_cast<unsigned>(civil.month)) /
                     chrono::day(static_cast<unsigned>(civil.day))
               : chrono::year_month_day();
  if (!in_range || !date.ok()) {
    return invalid_argument("no such date: " + date_text(civil));
  }
  if (civil.hour < 0 || civil.hour > 23 || civil.minute < 0 || civil.minute > 59 ||
      civil.second < 0 || civil.second > 60) {
    return invalid_argument("no such time of day: " + date_text(civil));
  }
  return days_since_epoch(date) * kSecondsPerDay + int64_t{civil.hour} * 3600 +
         int64_t{civil.minute} * 60 + civil.second;
}

CivilTime civil_from_unix_seconds(int64_t seconds) {
  ALLOT_CHECK(seconds >= kMinCivilUnixSeconds && seconds <= kMaxCivilUnixSeconds);
  const chrono::sys_seconds at{chrono::seconds(seconds)};
  const chrono::sys_days day = chrono::floor<chrono::days>(at);
  const chrono::year_month_day date(day);
  const chrono::hh_mm_ss<chrono::seconds> time(at - day);
  return {static_cast<int>(date.year()),
          static_cast<int>(static_cast<unsigned>(date.month())),
          static_cast<int>(static_cast<unsigned>(date.day())),
          static_cast<int>(time.hours().count()),
          static_cast<int>(time.minutes().count()),
          static_cast<int>(time.seconds().count())};
}

}  // namespace allot
