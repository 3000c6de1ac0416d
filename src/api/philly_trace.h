// The Philly trace format: Microsoft's Philly cluster job log (2017) as
// published by msr-fiddle/philly-traces and processed by the Pollux artifact:
//   timestamp,duration,num_gpus,gpu_time,cluster
//   2017-10-09 07:01:55,66.0,1,66.0,11cb48
// timestamp: submit time, UTC; duration: run time in seconds; num_gpus: a
// whole number; cluster: the virtual cluster (the team). Other columns
// (gpu_time) are ignored; the four above are required, in any order.
//
// Contract: pure functions of their text; errors are invalid_argument with
// the location of trace_csv.h ("jobs.csv: line 17: column num_gpus").
// Submit times become Unix time (milliseconds since 1970-01-01 UTC).
#pragma once

#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/trace_job.h"

namespace allot {

Result<std::vector<TraceJob>> parse_philly_trace(std::string_view text,
                                                 std::string_view source_name);

// "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DD" (midnight), UTC, as Unix time.
Result<Timestamp> parse_philly_time(std::string_view text);

}  // namespace allot
