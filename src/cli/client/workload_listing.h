// WorkloadListing: every page of a workload list (GET /api/v1/workloads or
// /api/v1/namespaces/{ns}/workloads), following `continue` tokens.
//
// Contract: sends `phase`, `team`, `limit` and `continue` as docs/api.md
// names them; keeps asking with the previous answer's `continue` until it is
// empty or `limit` items (when > 0) have been collected. Without a limit the
// server's page size applies. A token that repeats is kInternal (a server bug
// that would loop forever). Items keep the server's order (by uid).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "cli/client/api_client.h"

namespace allot::cli {

struct WorkloadQuery {
  std::string namespace_name;  // "" for all namespaces
  std::string phase;           // comma-separated phases, "" for any
  std::string team;
  int64_t limit = 0;  // at most this many items; 0: all
  std::string sort;   // the server's `sort` ("-priority"); "" for uid order
};

inline constexpr int64_t kMaxPageSize = 10'000;

Result<std::vector<nlohmann::json>> list_workloads(ApiClient& client, const WorkloadQuery& query);

}  // namespace allot::cli
