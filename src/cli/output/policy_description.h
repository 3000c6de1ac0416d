// PolicyDescription: `allot describe` for teams, nodes and the other policy
// objects, for people.
//
// Contract: describe_team() writes the team's spec summary, its quota from
// the spec (nominal, borrowing and lending limits) and, from `status`, the
// usage table FLAVOR RESOURCE NOMINAL USAGE BORROWED LENT with the pending
// and admitted workload counts. docs/api.md names those status fields but
// not their nesting, so the rows are read from any array of objects under
// status that carry "flavor" and either "resource" or a "resources" map
// (allotd today: status.quota, one row per flavor and resource, each with the
// team's pending and admitted counts).
// describe_node() writes the node, its capacity and allocation per resource
// and its workloads. describe_policy_object() writes name (namespace), kind
// and the spec (and status, if any) as YAML, for the other kinds; for the
// RBAC kinds their rules, aggregationRule, roleRef and subjects.
// describe_signal_history() writes a signal's history (GET
// /api/v1/signals/{name}/history) as the table AT EVENT SERIES DELIVERED,
// oldest first, each series as its labels=value; "History:  <none>" when
// it has no event. Pure.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace allot::cli {

std::string describe_team(const nlohmann::json& team);
std::string describe_node(const nlohmann::json& node);
std::string describe_policy_object(const nlohmann::json& object);
std::string describe_signal_history(const nlohmann::json& history);

}  // namespace allot::cli
