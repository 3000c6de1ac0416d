// JSON of the cluster read models (docs/api.md): nodes, quota usage and
// `top`, the changes of an apply, and policy objects as applied.
//
// Contract: pure encoders; never throw. policy_object_json() parses the
// stored document of the object (kInternal if it is not JSON, which the
// control plane never stores) and adds a team's `status.quota`.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/views/node_view.h"
#include "model/views/policy_view.h"
#include "model/views/quota_usage_view.h"

namespace allot {

nlohmann::json node_view_json(const NodeView& node);
// {"items": [...], "continue": "N"}; no "continue" after the last page.
nlohmann::json node_page_json(const NodePage& page);

nlohmann::json quota_usage_json(const QuotaUsageRow& row);
nlohmann::json top_json(const TopView& top);

nlohmann::json apply_result_json(const ApplyResult& result);

Result<nlohmann::json> policy_object_json(const PolicyObjectView& object);
// A Budget's status: {from, to, spent, used, reached, exhausted, stopsAdmission,
// runsOut[, problem]} (times RFC 3339 or null).
nlohmann::json budget_standing_json(const BudgetStandingView& standing);
// A Signal's status: {state, since, series, firingSeries, undeliveredEvents}.
nlohmann::json signal_status_json(const SignalStatusView& status);
Result<nlohmann::json> policy_list_json(const std::vector<PolicyObjectView>& objects);

}  // namespace allot
