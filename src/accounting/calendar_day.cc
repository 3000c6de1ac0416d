#include "accounting/calendar_day.h"

#include <string>

namespace allot {
namespace {

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

struct CivilDate {
  int64_t year = 0;
  int64_t month = 0;  // 1..12
  int64_t day = 0;    // 1..31
};

// Howard Hinnant's civil_from_days (public domain algorithm, re-derived here).
CivilDate civil_of(Timestamp at) {
  const int64_t z = floor_div(at.ms(), kMillisPerDay) + 719468;
  const int64_t era = floor_div(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return {year, month, day};
}

// Days since 1970-01-01 of a civil date (days_from_civil, the inverse).
int64_t days_of(const CivilDate& date) {
  const int64_t y = date.year - (date.month <= 2 ? 1 : 0);
  const int64_t era = floor_div(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t mp = date.month > 2 ? date.month - 3 : date.month + 9;
  const int64_t doy = (153 * mp + 2) / 5 + date.day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

Timestamp day_start(Timestamp at) {
  return Timestamp::from_millis(floor_div(at.ms(), kMillisPerDay) * kMillisPerDay);
}

std::string day_label(Timestamp at) {
  const auto [year, month, day] = civil_of(at);
  auto two_digits = [](int64_t n) { return std::string(n < 10 ? "0" : "") + std::to_string(n); };
  std::string year_text = std::to_string(year);
  if (year >= 0 && year < 1000) year_text.insert(0, 4 - year_text.size(), '0');
  return year_text + "-" + two_digits(month) + "-" + two_digits(day);
}

Timestamp month_start(Timestamp at) {
  CivilDate date = civil_of(at);
  date.day = 1;
  return Timestamp::from_millis(days_of(date) * kMillisPerDay);
}

}  // namespace allot
