// Calendar days of UTC timestamps, for reports grouped by day.
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

}  // namespace allot
