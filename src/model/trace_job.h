// TraceJob: one job of a replayed workload trace (a cluster's job log), as
// read by api/trace_reader.h and turned into simulation arrivals by
// service/trace_arrivals.h.
//
// Contract: a plain value. `submit` is on the trace's own time axis (Unix
// time for Philly, an arbitrary origin for the generic CSV format); only
// differences between submit times matter to a replay. `team` is the tenant
// as the trace names it (a Philly virtual cluster), not yet a namespace.
// `line` is the 1-based line of the job in its file, for error messages and
// default workload names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/time.h"

namespace allot {

struct TraceJob {
  Timestamp submit;
  Duration duration;  // run time once started
  int64_t gpus = 0;
  std::string team;
  std::optional<std::string> user;
  std::optional<std::string> priority_class;
  std::optional<std::string> name;
  int64_t line = 0;

  friend bool operator==(const TraceJob&, const TraceJob&) = default;
};

}  // namespace allot
