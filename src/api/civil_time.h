// Civil time in UTC: a proleptic Gregorian date and a time of day, turned
// into seconds since the Unix epoch and back. The one calendar of allot, for
// the API's RFC 3339 times (rfc3339.h) and the dates of job traces
// (philly_trace.h).
//
// Contract: built on std::chrono's calendar types (year_month_day, sys_days),
// which know month lengths and leap years (2000-02-29 is a day, 1900-02-29 is
// not); timegm() is not POSIX and gmtime() is the C library's. Years are
// those std::chrono::year holds, -32767 to 32767, counted astronomically
// (year 0 is 1 BC and a leap year). Unix time has no leap seconds: a second
// of 60 (RFC 3339's leap second) counts as the first second of the next
// minute. Pure functions; safe from any thread.
#pragma once

#include <cstdint>

#include "base/result.h"

namespace allot {

struct CivilTime {
  int year = 1970;
  int month = 1;   // 1 to 12
  int day = 1;     // 1 to the month's last day
  int hour = 0;    // 0 to 23
  int minute = 0;  // 0 to 59
  int second = 0;  // 0 to 60 (a leap second)

  bool operator==(const CivilTime&) const = default;
};

// The first second of year -32767 and the last of year 32767, since the epoch.
inline constexpr int64_t kMinCivilUnixSeconds = -1'096'193'779'200;
inline constexpr int64_t kMaxCivilUnixSeconds = 971'890'963'199;

// Seconds since 1970-01-01T00:00:00Z; invalid_argument when the date is not a
// day of the calendar (2026-02-29, 2025-04-31, month 13, year 40000) or the
// time of day is out of range.
Result<int64_t> to_unix_seconds(const CivilTime& civil);

// The civil time of a second since the epoch (its second is 0 to 59).
// REQUIRES: kMinCivilUnixSeconds <= seconds <= kMaxCivilUnixSeconds.
CivilTime civil_from_unix_seconds(int64_t seconds);

}  // namespace allot
