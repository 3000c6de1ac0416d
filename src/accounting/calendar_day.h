// Calendar days and months of UTC timestamps, for reports grouped by day and
// figures since the start of a month.
//
// Contract: pure arithmetic on milliseconds since the Unix epoch (proleptic
// Gregorian calendar, UTC); no clock, no time zone database.
#pragma once

#include <cstdint>
#include <string>

#include "base/time.h"

namespace allot {

inline constexpr int64_t kMillisPerDay = 86'400'000;

// The start of the UTC day that holds `at`.
Timestamp day_start(Timestamp at);
// "YYYY-MM-DD" of the UTC day that holds `at`.
std::string day_label(Timestamp at);
// The start of the UTC month that holds `at` (the 1st, 00:00).
Timestamp month_start(Timestamp at);

}  // namespace allot
