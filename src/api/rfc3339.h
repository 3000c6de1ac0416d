// RFC 3339 timestamps in UTC with milliseconds ("2026-11-30T05:00:00.123Z"),
// the time format of the REST API.
//
// Contract: Timestamps are milliseconds since the Unix epoch. parse accepts
// the form format writes, with or without the fraction (1 to 9 digits,
// truncated to milliseconds) and with "Z" or a numeric offset ("+02:00").
// RFC 3339 years have four digits: format writes a time before year 0 or
// after 9999 (Timestamp::infinite_future()) as the first or last millisecond
// it can express. The calendar is civil_time.h's.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "base/time.h"

namespace allot {

std::string format_rfc3339(Timestamp at);
Result<Timestamp> parse_rfc3339(std::string_view text);

}  // namespace allot
