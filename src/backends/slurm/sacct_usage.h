// SacctUsage: Slurm's own accounting of allot's jobs (issue 13, item 4), read
// from `sacct -n -P -X -a -o <kSacctUsageFormat>` for reconciliation with
// allot's metering ledger (accounting/backend_reconciliation.h).
//
// Contract: parse_sacct_usage() is pure. It reads exactly kSacctUsageFormat
// lines (pipe-separated, no header); a line with the wrong number of fields,
// or a time, elapsed seconds or GPU count that is not one, is
// kInvalidArgument naming the line. Only allot's jobs (the name is `prefix`
// + a workload id) that ran (Start and End are times, not Unknown/None) are
// kept. Times are read as UTC: run sacct with TZ=UTC (sacct writes local
// time). The GPUs are AllocTRES's `gres/gpu=N` (the typed `gres/gpu:T=N`
// entries summed when the untyped one is absent; 0 when neither).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/ids.h"

namespace allot::slurm {

inline constexpr std::string_view kSacctUsageFormat =
    "JobIDRaw,JobName,Account,Start,End,ElapsedRaw,AllocTRES";

struct SacctUsage {
  std::string job_id;
  WorkloadId workload;
  std::string account;
  Timestamp start;
  Timestamp end;
  int64_t elapsed_seconds = 0;
  int64_t gpus = 0;

  friend bool operator==(const SacctUsage&, const SacctUsage&) = default;
};

Result<std::vector<SacctUsage>> parse_sacct_usage(std::string_view text, std::string_view prefix);

// "2026-12-03T22:31:33" as UTC; nullopt for anything else (Unknown, None).
std::optional<Timestamp> parse_sacct_time(std::string_view text);

}  // namespace allot::slurm
