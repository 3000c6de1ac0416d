// HumanTime: the API's timestamps read and shown to people (`allot get`'s AGE
// column, `allot describe`).
//
// Contract: parse_api_time() reads RFC 3339 times (api/rfc3339.h) in UTC or with an offset
// ("2026-11-30T05:00:00.000Z", "...+02:00"; fraction optional) into
// milliseconds since the Unix epoch. format_age() shortens a duration the way
// kubectl does ("45s", "5m12s", "3h", "2d4h", "1y"). `now` is always passed
// in; nothing here reads a clock. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/time.h"

namespace allot::cli {

std::optional<Timestamp> parse_api_time(std::string_view text);

// REQUIRES: nothing; negative durations (clock skew) read as "0s".
std::string format_age(Duration age);

// The age of a JSON time value at `now`, or "<unknown>" when it is missing or
// unreadable.
std::string age_of(const nlohmann::json* time_value, Timestamp now);

}  // namespace allot::cli
