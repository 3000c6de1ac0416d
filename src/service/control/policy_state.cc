#include "service/control/policy_state.h"

#include <string>
#include <utility>

#include "api/json_diff.h"
#include "model/node_inventory.h"
#include "service/control/input_error.h"

namespace allot {

bool is_policy_kind(std::string_view kind) {
  return kind == "Cluster" || kind == "ResourceFlavor" || kind == "NodePool" || kind == "Cohort" ||
         kind == "Team" || kind == "PriorityClass";
}

Result<PolicyState> PolicyState::from_documents(std::map<DocumentKey, nlohmann::json> documents) {
  PolicyState state;
  state.documents_ = std::move(documents);
  if (state.documents_.empty()) return state;
  std::string text;
  for (const auto& [key, json] : state.documents_) {
    text += "---\n" + json.dump() + "\n";
  }
  ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, parse_manifests(text, "applied policy"));
  ALLOT_RETURN_IF_ERROR(validate_policy(bundle.policy));
  ALLOT_ASSIGN_OR_RETURN(CompiledPolicy compiled,
                         CompiledPolicy::compile(bundle.policy, expand_node_pools(bundle.policy)));
  state.policy_ = std::move(bundle.policy);
  state.compiled_ = std::make_shared<const CompiledPolicy>(std::move(compiled));
  return state;
}

namespace {

// `current` with the policy documents of `documents` applied, one change
// each in `changes`.
std::map<DocumentKey, nlohmann::json> merge(const std::map<DocumentKey, nlohmann::json>& current,
                                            const std::vector<ManifestDocument>& documents,
                                            std::vector<PolicyChange>& changes) {
  std::map<DocumentKey, nlohmann::json> merged = current;
  for (const ManifestDocument& document : documents) {
    if (!is_policy_kind(document.kind)) continue;
    const DocumentKey key(document.kind, document.name);
    PolicyChange change{document.kind, document.name, "created", {}};
    if (auto it = merged.find(key); it != merged.end()) {
      change.diff = json_diff(it->second, document.json);
      change.action = change.diff.empty() ? "unchanged" : "configured";
    }
    merged[key] = document.json;
    changes.push_back(std::move(change));
  }
  return merged;
}

}  // namespace

std::vector<PolicyChange> PolicyState::changes_of(
    const std::vector<ManifestDocument>& documents) const {
  std::vector<PolicyChange> changes;
  merge(documents_, documents, changes);
  return changes;
}

Result<PolicyState> PolicyState::with_applied(const std::vector<ManifestDocument>& documents,
                                              std::vector<PolicyChange>& changes) const {
  std::map<DocumentKey, nlohmann::json> merged = merge(documents_, documents, changes);
  // The same documents: the same (valid) state, without compiling it again.
  if (merged == documents_) return *this;
  Result<PolicyState> next = from_documents(std::move(merged));
  if (!next.ok()) {
    // A manifest that leaves the policy invalid (a dangling reference, a
    // cycle) is bad input (400), however the validator phrases it.
    return as_input_error(next.status(), "the policy would be invalid: ");
  }
  return next;
}

Result<PolicyState> PolicyState::without(const DocumentKey& key) const {
  std::map<DocumentKey, nlohmann::json> remaining = documents_;
  if (remaining.erase(key) == 0) {
    return not_found(key.first + " '" + key.second + "' does not exist");
  }
  Result<PolicyState> next = from_documents(std::move(remaining));
  if (!next.ok()) {
    return failed_precondition("deleting " + key.first + " '" + key.second +
                                   "' would leave the policy invalid: " + next.status().message(),
                               next.status().details());
  }
  return next;
}

}  // namespace allot
