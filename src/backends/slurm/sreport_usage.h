// SreportUsage: Slurm's own report of GPU time per account over whole hours,
// `sreport cluster AccountUtilizationByUser` (issue 13, item 4: usage
// reconciled against Slurm's sreport). sreport reads slurmdbd's hourly
// rollups, not the job records: an hour counts once slurmdbd has rolled it
// up (shortly after it ends).
//
// Contract: sreport_usage_args() is the argv of the one call (run it with
// TZ=UTC: sreport reads and writes local time). parse_sreport_usage() is
// pure: it reads exactly the kSreportUsageFormat lines it asks for
// (pipe-separated, no header); a line with the wrong number of fields, or a
// Used that is not a whole number of seconds, is kInvalidArgument naming the
// line. It keeps the accounts' own lines (Login empty: the account's jobs and
// its sub-accounts', in sreport's order) of the TRES gres/gpu; users' lines
// are left out. sreport prints no line for an account that used nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/backend_account_usage.h"

namespace allot::slurm {

inline constexpr std::string_view kSreportUsageFormat = "Account,Login,TresName,Used";

// `sreport -n -P -t seconds -T gres/gpu cluster AccountUtilizationByUser
// cluster=C start=.. end=.. format=<kSreportUsageFormat>`. REQUIRES: from and
// to are whole hours (sreport widens any other time to its hour).
std::vector<std::string> sreport_usage_args(const std::string& cluster, Timestamp from,
                                            Timestamp to);

Result<std::vector<BackendAccountUsage>> parse_sreport_usage(std::string_view text);

// "2026-12-07T03:00:00": a time as Slurm's commands read it (UTC when run
// with TZ=UTC); whole seconds.
std::string slurm_time_text(Timestamp at);

}  // namespace allot::slurm
