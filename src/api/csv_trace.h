// The generic CSV trace format (docs/trace-format.md):
//   submit_s,duration_s,gpus,team[,user][,priority_class][,name]
// submit_s: submit time in seconds from any origin (a decimal number, may be
// negative); duration_s: run time in seconds (>= 0); gpus: a whole number
// >= 0; team: the tenant. The optional columns may come in any order; an
// empty optional field means "not given". Unknown columns are errors.
//
// Contract: a pure function of its text; errors are invalid_argument with the
// location of trace_csv.h ("jobs.csv: line 17: column gpus").
#pragma once

#include <string_view>
#include <vector>

#include "base/result.h"
#include "model/trace_job.h"

namespace allot {

Result<std::vector<TraceJob>> parse_csv_trace(std::string_view text, std::string_view source_name);

}  // namespace allot
