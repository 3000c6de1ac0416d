// BackendJobRecord: one ended job of a workload as the backend's own
// accounting records it (Slurm: sacct's Start, End, Account and AllocTRES
// gres/gpu), for reconciliation with allot's metering ledger
// (accounting/backend_reconciliation.h). A plain value type.
#pragma once

#include <cstdint>
#include <string>

#include "base/time.h"
#include "model/ids.h"

namespace allot {

struct BackendJobRecord {
  std::string job_id;
  WorkloadId workload;
  std::string account;  // the backend's account (Slurm: the team's)
  Timestamp start;
  Timestamp end;
  int64_t gpus = 0;

  friend bool operator==(const BackendJobRecord&, const BackendJobRecord&) = default;
};

}  // namespace allot
