// BackendAccountUsage: the GPU time that the backend's own accounting
// reports per account over whole hours (Slurm: `sreport cluster
// AccountUtilizationByUser`, from slurmdbd's hourly rollups), for comparing
// with allot's metering (accounting/backend_usage_comparison.h). Plain value
// types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/time.h"

namespace allot {

struct BackendAccountUsage {
  std::string account;
  int64_t gpu_seconds = 0;  // the account's jobs' GPUs x seconds, its sub-accounts included

  friend bool operator==(const BackendAccountUsage&, const BackendAccountUsage&) = default;
};

struct BackendUsage {
  std::string source;  // what was asked, e.g. "sreport cluster AccountUtilizationByUser"
  Timestamp from;      // whole hours, UTC
  Timestamp to;
  std::vector<BackendAccountUsage> accounts;  // in the backend's order

  friend bool operator==(const BackendUsage&, const BackendUsage&) = default;
};

}  // namespace allot
