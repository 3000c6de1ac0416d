// WorkloadDocument: a workload as allotd keeps it: its id, the manifest as
// submitted and the status allotd gives it. What is stored and served
// (api/workload_json.h is its codec).
//
// Contract: a plain value with operator==.
#pragma once

#include "model/ids.h"
#include "model/workload.h"
#include "model/workload_status.h"

namespace allot {

struct WorkloadDocument {
  WorkloadId uid;
  Workload workload;
  WorkloadStatus status;

  friend bool operator==(const WorkloadDocument&, const WorkloadDocument&) = default;
};

}  // namespace allot
