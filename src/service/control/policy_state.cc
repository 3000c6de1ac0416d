#include "service/control/policy_state.h"

#include <set>
#include <string>
#include <utility>

#include "api/json_diff.h"
#include "api/rbac_documents.h"
#include "authz/rbac_validation.h"
#include "governance/policy_exceptions.h"
#include "model/node_inventory.h"
#include "service/backend_sync/inventory_nodes.h"
#include "service/control/input_error.h"

namespace allot {

bool is_policy_kind(std::string_view kind) {
  return kind == "Cluster" || kind == "ResourceFlavor" || kind == "NodePool" || kind == "Cohort" ||
         kind == "Team" || kind == "PriorityClass" || kind == "Budget" || kind == "Organization" ||
         kind == "Contract" || kind == "Signal" || kind == "PolicyException" || is_rbac_kind(kind);
}

DocumentKey document_key(std::string_view kind, std::string_view namespace_name,
                         std::string_view name) {
  if (namespace_name.empty()) return {std::string(kind), std::string(name)};
  return {std::string(kind), std::string(namespace_name) + "/" + std::string(name)};
}

namespace {

// Whether `a` and `b` hold the same documents of the scheduling kinds (every
// kind but the RBAC ones).
bool same_scheduling_documents(const std::map<DocumentKey, nlohmann::json>& a,
                               const std::map<DocumentKey, nlohmann::json>& b) {
  auto next = [](const std::map<DocumentKey, nlohmann::json>& documents, auto it) {
    while (it != documents.end() && is_rbac_kind(it->first.first)) ++it;
    return it;
  };
  auto ia = next(a, a.begin());
  auto ib = next(b, b.begin());
  while (ia != a.end() && ib != b.end()) {
    if (ia->first != ib->first || ia->second != ib->second) return false;
    ia = next(a, std::next(ia));
    ib = next(b, std::next(ib));
  }
  return ia == a.end() && ib == b.end();
}

std::set<std::string> team_namespaces(const Policy& policy) {
  std::set<std::string> namespaces;
  for (const Team& team : policy.teams) namespaces.insert(team.namespace_name);
  return namespaces;
}

// The documents as one YAML stream; `rbac_only`: only those of the RBAC kinds.
std::string documents_text(const std::map<DocumentKey, nlohmann::json>& documents, bool rbac_only) {
  std::string text;
  for (const auto& [key, json] : documents) {
    if (rbac_only && !is_rbac_kind(key.first)) continue;
    text += "---\n" + json.dump() + "\n";
  }
  return text;
}

bool has_scheduling_documents(const std::map<DocumentKey, nlohmann::json>& documents) {
  for (const auto& [key, json] : documents) {
    if (!is_rbac_kind(key.first)) return true;
  }
  return false;
}

}  // namespace

Result<PolicyState> PolicyState::from_documents(std::map<DocumentKey, nlohmann::json> documents) {
  return from_documents(std::move(documents), PolicyState());
}

Result<PolicyState> PolicyState::from_documents(std::map<DocumentKey, nlohmann::json> documents,
                                                const PolicyState& previous) {
  PolicyState state;
  state.documents_ = std::move(documents);
  state.backend_nodes_ = previous.backend_nodes_;
  state.withheld_exceptions_ = previous.withheld_exceptions_;
  if (state.documents_.empty()) return state;
  const bool keep_scheduling = previous.compiled_ != nullptr &&
                               same_scheduling_documents(previous.documents_, state.documents_);
  ALLOT_ASSIGN_OR_RETURN(
      ManifestBundle bundle,
      parse_manifests(documents_text(state.documents_, keep_scheduling), "applied policy"));
  if (keep_scheduling) {
    state.policy_ = previous.policy_;
    state.compiled_ = previous.compiled_;
    state.effective_ = previous.effective_;
    state.active_exceptions_ = previous.active_exceptions_;
  } else {
    ALLOT_RETURN_IF_ERROR(validate_policy(bundle.policy));
    if (has_scheduling_documents(state.documents_)) {
      ALLOT_ASSIGN_OR_RETURN(CompiledPolicy compiled,
                             CompiledPolicy::compile(
                                 bundle.policy, policy_nodes(bundle.policy, state.backend_nodes_)));
      state.compiled_ = std::make_shared<const CompiledPolicy>(std::move(compiled));
    }
    state.policy_ = std::move(bundle.policy);
  }
  ALLOT_RETURN_IF_ERROR(validate_rbac(bundle.rbac, team_namespaces(state.policy_)));
  state.rbac_ = std::move(bundle.rbac);
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
    const DocumentKey key = document_key(document.kind, document.namespace_name, document.name);
    PolicyChange change{document.kind, key.second, "created", {}};
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
  Result<PolicyState> next = from_documents(std::move(merged), *this);
  if (!next.ok()) {
    // A manifest that leaves the policy invalid (a dangling reference, a
    // cycle) is bad input (400), however the validator phrases it.
    return as_input_error(next.status(), "the policy would be invalid: ");
  }
  return next;
}

bool PolicyState::exceptions_changed_at(Timestamp now) const {
  return active_exception_names(policy_, now, withheld_exceptions_) != active_exceptions_;
}

PolicyState PolicyState::with_withheld_exceptions(std::set<std::string> withheld) const {
  PolicyState state = *this;
  state.withheld_exceptions_ = std::move(withheld);
  return state;
}

Result<PolicyState> PolicyState::with_exceptions_at(Timestamp now) const {
  std::vector<std::string> active = active_exception_names(policy_, now, withheld_exceptions_);
  PolicyState state = *this;
  if (active == active_exceptions_) return state;
  state.active_exceptions_ = std::move(active);
  state.effective_ = state.active_exceptions_.empty()
                         ? nullptr
                         : std::make_shared<const Policy>(
                               policy_with_exceptions(policy_, now, withheld_exceptions_));
  const Policy& effective = state.effective();
  if (!has_scheduling_documents(documents_)) return state;
  ALLOT_ASSIGN_OR_RETURN(
      CompiledPolicy compiled,
      CompiledPolicy::compile(effective, policy_nodes(effective, backend_nodes_)));
  state.compiled_ = std::make_shared<const CompiledPolicy>(std::move(compiled));
  return state;
}

Result<PolicyState> PolicyState::with_backend_nodes(std::vector<Node> nodes) const {
  PolicyState state = *this;
  state.backend_nodes_ = std::move(nodes);
  if (!has_scheduling_documents(documents_)) return state;
  const Policy& effective = state.effective();
  ALLOT_ASSIGN_OR_RETURN(
      CompiledPolicy compiled,
      CompiledPolicy::compile(effective, policy_nodes(effective, state.backend_nodes_)));
  state.compiled_ = std::make_shared<const CompiledPolicy>(std::move(compiled));
  return state;
}

Result<PolicyState> PolicyState::without(const DocumentKey& key) const {
  std::map<DocumentKey, nlohmann::json> remaining = documents_;
  if (remaining.erase(key) == 0) {
    return not_found(key.first + " '" + key.second + "' does not exist");
  }
  Result<PolicyState> next = from_documents(std::move(remaining), *this);
  if (!next.ok()) {
    return failed_precondition("deleting " + key.first + " '" + key.second +
                                   "' would leave the policy invalid: " + next.status().message(),
                               next.status().details());
  }
  return next;
}

}  // namespace allot
