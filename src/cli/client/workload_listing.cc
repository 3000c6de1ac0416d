#include "cli/client/workload_listing.h"

#include <algorithm>

#include "cli/client/api_paths.h"
#include "cli/client/json_fields.h"

namespace allot::cli {
namespace {

std::string page_path(const WorkloadQuery& query, int64_t collected, const std::string& token) {
  std::string limit;
  if (query.limit > 0) {
    limit = std::to_string(std::min(query.limit - collected, kMaxPageSize));
  }
  return with_query(workloads_path(query.namespace_name), {{"phase", query.phase},
                                                           {"team", query.team},
                                                           {"sort", query.sort},
                                                           {"limit", limit},
                                                           {"continue", token}});
}

}  // namespace

Result<std::vector<nlohmann::json>> list_workloads(ApiClient& client, const WorkloadQuery& query) {
  std::vector<nlohmann::json> items;
  std::string token;
  while (true) {
    const auto collected = static_cast<int64_t>(items.size());
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(page_path(query, collected, token)));
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json page, response.json());
    for (const nlohmann::json& item : array_at(page, "items")) {
      if (query.limit > 0 && static_cast<int64_t>(items.size()) >= query.limit) break;
      items.push_back(item);
    }
    const std::string next = text_at(page, {"continue"});
    if (next.empty() || (query.limit > 0 && static_cast<int64_t>(items.size()) >= query.limit)) {
      return items;
    }
    if (next == token) {
      return Status(ErrorCode::kInternal, "allotd sent the same continue token twice",
                    "continue=" + next);
    }
    token = next;
  }
}

}  // namespace allot::cli
