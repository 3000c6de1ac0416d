// LogFollower: `allot logs`, a pod's log read from allotd, once or followed.
//
// Contract: GETs .../logs?pod=P&offset=O and writes the bytes as they come
// (flushing `out` after each chunk). The next offset is the
// X-Allot-Log-Offset header (docs/api.md), or the old offset plus the bytes
// read when the header is absent. With `follow`, when a read returns nothing
// new it asks for the workload's phase: once the phase is final (Succeeded,
// Failed, Cancelled) it reads until the log is drained and returns;
// otherwise it waits `poll_interval` through the injected `wait` and reads
// again. While following, a log that does not exist yet (404) is waited for
// like an empty one; the workload itself must exist. Not thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string_view>

#include "base/status.h"
#include "cli/client/api_client.h"
#include "cli/client/workload_ref.h"

namespace allot::cli {

inline constexpr std::chrono::milliseconds kDefaultLogPollInterval{500};

struct LogRequest {
  WorkloadRef workload;
  int pod = 0;
  bool follow = false;
  std::chrono::milliseconds poll_interval = kDefaultLogPollInterval;
};

using Waiter = std::function<void(std::chrono::milliseconds)>;

// Succeeded, Failed or Cancelled.
bool is_final_phase(std::string_view phase);

Status stream_logs(ApiClient& client, const LogRequest& request, std::ostream& out,
                   const Waiter& wait);

}  // namespace allot::cli
