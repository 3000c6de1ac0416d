// BackendUsageOutput: `allot report backend-usage` for people, from the
// answer of GET /api/v1/reports/usage/backend (docs/cost.md): allot's
// metered GPU time per team beside the backend's own accounting (Slurm's
// sreport) over whole hours.
//
// Contract: pure. A line naming the backend's report and the hours compared,
// then one line per team (allot's GPU-seconds, the backend's, allot's minus
// the backend's; seconds to one decimal, differences signed), the totals,
// and, while the last hour is open, a note that the backend counts an hour
// once it has rolled it up.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace allot::cli {

std::string backend_usage_table(const nlohmann::json& comparison);

}  // namespace allot::cli
