#include "cli/verbs/kubernetes_policy_source.h"

#include <string>

#include "cli/client/api_paths.h"
#include "cli/verbs/input_files.h"

namespace allot::cli {
namespace {

void append(ManifestBundle& into, ManifestBundle from) {
  auto move_all = [](auto& to, auto& items) {
    for (auto& item : items) to.push_back(std::move(item));
  };
  move_all(into.policy.clusters, from.policy.clusters);
  move_all(into.policy.flavors, from.policy.flavors);
  move_all(into.policy.node_pools, from.policy.node_pools);
  move_all(into.policy.cohorts, from.policy.cohorts);
  move_all(into.policy.teams, from.policy.teams);
  move_all(into.policy.priority_classes, from.policy.priority_classes);
  move_all(into.policy.budgets, from.policy.budgets);
  move_all(into.policy.signals, from.policy.signals);
  move_all(into.rbac.roles, from.rbac.roles);
  move_all(into.rbac.cluster_roles, from.rbac.cluster_roles);
  move_all(into.rbac.role_bindings, from.rbac.role_bindings);
  move_all(into.rbac.cluster_role_bindings, from.rbac.cluster_role_bindings);
  move_all(into.workloads, from.workloads);
}

}  // namespace

Result<ManifestBundle> read_policy_files(const std::vector<std::string>& files, CliIo& io) {
  ManifestBundle bundle;
  for (const std::string& path : files) {
    ALLOT_ASSIGN_OR_RETURN(std::string text, read_input_file(path, io));
    ALLOT_ASSIGN_OR_RETURN(ManifestBundle part, parse_manifests(text, path));
    append(bundle, std::move(part));
  }
  ALLOT_RETURN_IF_ERROR(validate_policy(bundle.policy));
  return bundle;
}

Result<ManifestBundle> fetch_policy(const ServerFlags& server) {
  ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server));
  std::string text;
  for (const char* kind :
       {"clusters", "resourceflavors", "nodepools", "cohorts", "teams", "priorityclasses",
        "clusterroles", "clusterrolebindings", "roles", "rolebindings"}) {
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(cluster_collection_path(kind)));
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json answer, response.json());
    for (const nlohmann::json& item : answer.value("items", nlohmann::json::array())) {
      text += "---\n" + item.dump() + "\n";
    }
  }
  ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, parse_manifests(text, "allotd"));
  ALLOT_RETURN_IF_ERROR(validate_policy(bundle.policy));
  return bundle;
}

Result<std::vector<Signal>> fetch_signals(const ServerFlags& server) {
  ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server));
  ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(cluster_collection_path("signals")));
  ALLOT_ASSIGN_OR_RETURN(nlohmann::json answer, response.json());
  std::string text;
  for (nlohmann::json item : answer.value("items", nlohmann::json::array())) {
    item.erase("status");  // allotd's evaluation, not part of the manifest
    text += "---\n" + item.dump() + "\n";
  }
  ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, parse_manifests(text, "allotd"));
  return std::move(bundle.policy.signals);
}

}  // namespace allot::cli
