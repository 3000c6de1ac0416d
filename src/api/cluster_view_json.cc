#include "api/cluster_view_json.h"

#include <string>
#include <utility>

#include "api/contract_status_json.h"
#include "api/exception_status_json.h"
#include "api/rfc3339.h"

namespace allot {
namespace {

using nlohmann::json;

json resources_json(const ResourceVector& resources) {
  json out = json::object();
  for (Resource r : kAllResources) {
    out[std::string(resource_name(r))] = format_quantity(r, resources[r]);
  }
  return out;
}

}  // namespace

json node_view_json(const NodeView& node) {
  json out = {{"name", node.name},
              {"pool", node.pool},
              {"flavor", node.flavor},
              {"rack", node.rack},
              {"block", node.block},
              {"capacity", resources_json(node.capacity)},
              {"allocated", resources_json(node.allocated)},
              {"healthy", node.healthy},
              {"cordoned", node.cordoned},
              {"reason", node.reason},
              {"lastHeartbeat",
               node.last_heartbeat ? json(format_rfc3339(*node.last_heartbeat)) : json(nullptr)},
              {"workloads", node.workloads}};
  // Its health changes, newest first.
  json history = json::array();
  for (auto it = node.health_history.rbegin(); it != node.health_history.rend(); ++it) {
    history.push_back(
        {{"at", format_rfc3339(it->at)}, {"healthy", it->healthy}, {"reason", it->reason}});
  }
  out["healthHistory"] = std::move(history);
  // Where the backend owns the nodes (Slurm): its own state and reason.
  if (!node.backend_state.empty()) {
    out["backend"] = {{"state", node.backend_state}, {"reason", node.backend_reason}};
  }
  return out;
}

json node_page_json(const NodePage& page) {
  json items = json::array();
  for (const NodeView& node : page.items) items.push_back(node_view_json(node));
  json out{{"items", std::move(items)}};
  if (page.next) out["continue"] = std::to_string(*page.next);
  return out;
}

json quota_usage_json(const QuotaUsageRow& row) {
  const auto amount = [&](int64_t value) { return format_quantity(row.resource, value); };
  return {{"team", row.team},
          {"cohort", row.cohort},
          {"flavor", row.flavor},
          {"resource", std::string(resource_name(row.resource))},
          {"nominal", amount(row.nominal)},
          {"usage", amount(row.usage)},
          {"borrowed", amount(row.borrowed)},
          {"lent", amount(row.lent)},
          {"pending", row.pending},
          {"admitted", row.admitted}};
}

json top_json(const TopView& top) {
  json rows = json::array();
  for (const QuotaUsageRow& row : top.teams) rows.push_back(quota_usage_json(row));
  return json{{"teams", std::move(rows)}};
}

json apply_result_json(const ApplyResult& result) {
  json changes = json::array();
  for (const PolicyChange& change : result.changes) {
    std::string name = change.name;
    std::string ns;
    // Namespaced objects (workloads, Roles, RoleBindings) are "namespace/name".
    if (name.find('/') != std::string::npos) {
      ns = name.substr(0, name.find('/'));
      name = name.substr(name.find('/') + 1);
    }
    std::string diff;
    for (const std::string& line : change.diff) diff += (diff.empty() ? "" : "\n") + line;
    changes.push_back({{"kind", change.kind},
                       {"name", name},
                       {"namespace", ns},
                       {"action", change.action},
                       {"diff", diff}});
  }
  json out = {{"dryRun", result.dry_run}, {"changes", std::move(changes)}};
  if (!result.backend_changes.empty()) out["backendChanges"] = result.backend_changes;
  return out;
}

namespace {

json optional_time(const std::optional<Timestamp>& at) {
  return at ? json(format_rfc3339(*at)) : json(nullptr);
}

}  // namespace

json budget_standing_json(const BudgetStandingView& standing) {
  json out = {{"from", optional_time(standing.from)},
              {"to", optional_time(standing.to)},
              {"spent", standing.spent},
              {"used", standing.used},
              {"reached", standing.reached},
              {"exhausted", standing.exhausted},
              {"stopsAdmission", standing.stops_admission},
              {"runsOut", optional_time(standing.runs_out)}};
  if (!standing.problem.empty()) out["problem"] = standing.problem;
  return out;
}

json signal_status_json(const SignalStatusView& status) {
  std::string series;
  for (const std::string& one : status.series) series += (series.empty() ? "" : "; ") + one;
  return {{"state", status.state},
          {"since", optional_time(status.since)},
          {"series", status.series},
          {"firingSeries", status.state == "firing" ? series : ""},
          {"undeliveredEvents", status.undelivered}};
}

Result<json> policy_object_json(const PolicyObjectView& object) {
  json out = json::parse(object.document, nullptr, false);
  if (out.is_discarded()) {
    return Status(ErrorCode::kInternal,
                  "stored " + object.kind + " '" + object.name + "' is not JSON");
  }
  if (object.quota) {
    json rows = json::array();
    for (const QuotaUsageRow& row : *object.quota) rows.push_back(quota_usage_json(row));
    out["status"] = {{"quota", std::move(rows)}};
  }
  if (object.budget) out["status"] = budget_standing_json(*object.budget);
  if (object.contract) out["status"] = contract_standing_json(*object.contract);
  if (object.signal) out["status"] = signal_status_json(*object.signal);
  if (object.exception) out["status"] = exception_status_json(*object.exception);
  return out;
}

Result<json> policy_list_json(const std::vector<PolicyObjectView>& objects) {
  json items = json::array();
  for (const PolicyObjectView& object : objects) {
    ALLOT_ASSIGN_OR_RETURN(json item, policy_object_json(object));
    items.push_back(std::move(item));
  }
  return json{{"items", std::move(items)}};
}

}  // namespace allot
