// PolicyState: the applied policy of allotd, as documents and compiled.
//
// Contract: a value. Documents are the manifests as applied (JSON, keyed by
// kind and name; "namespace/name" for the namespaced Roles and RoleBindings:
// document_key()); the Policy and the RbacPolicy are parsed from them and
// validated (validate_policy(), validate_rbac(): a Role or RoleBinding lives
// in a team's namespace, no built-in role is redefined), and the Policy is
// compiled, so a PolicyState is always valid. A change of RBAC objects only
// keeps the compiled Policy as it is (the same pointer). with_applied() and without() return a new
// state or the first error (located at the document and field); the
// original is unchanged, so a failed apply changes nothing; documents equal
// to the applied ones give a copy of the state, not a recompiled one. An empty policy
// (nothing applied yet, or RBAC objects only) is valid and has no compiled form.
// PolicyExceptions: a state from documents applies none; with_exceptions_at()
// applies those active at a time (the admission loop calls it each cycle,
// and the apply and recovery paths after building the state), but never
// those withheld (not Approved: with_withheld_exceptions(), kept across
// applies).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/manifest_parser.h"
#include "base/result.h"
#include "base/time.h"
#include "model/node.h"
#include "model/policy.h"
#include "model/rbac/rbac_policy.h"
#include "model/views/policy_view.h"
#include "scheduler/compiled_policy.h"

namespace allot {

using DocumentKey = std::pair<std::string, std::string>;  // kind, name

// The key of an object: (kind, name), or (kind, "namespace/name") when it
// has a namespace.
DocumentKey document_key(std::string_view kind, std::string_view namespace_name,
                         std::string_view name);

class PolicyState {
 public:
  PolicyState() = default;

  // Rebuilds a state from stored documents.
  static Result<PolicyState> from_documents(std::map<DocumentKey, nlohmann::json> documents);
  // As above; when `previous` has the same documents of every kind but the
  // RBAC ones, its Policy and compiled form are kept rather than rebuilt.
  static Result<PolicyState> from_documents(std::map<DocumentKey, nlohmann::json> documents,
                                            const PolicyState& previous);

  // The state after applying the policy documents of `documents` (Workload
  // documents are skipped); `changes` gets one entry per policy document.
  [[nodiscard]] Result<PolicyState> with_applied(const std::vector<ManifestDocument>& documents,
                                                 std::vector<PolicyChange>& changes) const;
  // The changes with_applied() would report, without validating or
  // compiling anything.
  [[nodiscard]] std::vector<PolicyChange> changes_of(
      const std::vector<ManifestDocument>& documents) const;
  // The state without one object. kNotFound when absent; a state that would
  // be invalid (a team still naming the cohort) is kFailedPrecondition.
  [[nodiscard]] Result<PolicyState> without(const DocumentKey& key) const;

  [[nodiscard]] const Policy& policy() const { return policy_; }
  // The policy the scheduler and the admission gate see: policy() with the
  // PolicyExceptions active when with_exceptions_at() was last called
  // (governance/policy_exceptions.h); compiled() is its compiled form.
  [[nodiscard]] const Policy& effective() const { return effective_ ? *effective_ : policy_; }
  [[nodiscard]] const std::vector<std::string>& active_exceptions() const {
    return active_exceptions_;
  }
  // Whether the exceptions active at `now` differ from those applied.
  [[nodiscard]] bool exceptions_changed_at(Timestamp now) const;
  // This state with the exceptions active at `now` applied (and compiled);
  // a copy of it when they are the same ones.
  [[nodiscard]] Result<PolicyState> with_exceptions_at(Timestamp now) const;
  // The exceptions that are not in force whatever their expiry (not
  // Approved); with_exceptions_at() must be called after a change of them.
  [[nodiscard]] const std::set<std::string>& withheld_exceptions() const {
    return withheld_exceptions_;
  }
  [[nodiscard]] PolicyState with_withheld_exceptions(std::set<std::string> withheld) const;
  // The applied Roles, ClusterRoles and bindings (without the built-ins).
  [[nodiscard]] const RbacPolicy& rbac() const { return rbac_; }
  // Null while the policy is empty.
  [[nodiscard]] const std::shared_ptr<const CompiledPolicy>& compiled() const { return compiled_; }
  [[nodiscard]] const std::map<DocumentKey, nlohmann::json>& documents() const {
    return documents_;
  }
  // The nodes the backend owns (a Slurm Cluster that declares no NodePool:
  // service/backend_sync/inventory_nodes.h), compiled beside the NodePools'
  // for such a cluster; kept across applies. with_backend_nodes() is this
  // state compiled with new ones.
  [[nodiscard]] const std::vector<Node>& backend_nodes() const { return backend_nodes_; }
  [[nodiscard]] Result<PolicyState> with_backend_nodes(std::vector<Node> nodes) const;

 private:
  std::map<DocumentKey, nlohmann::json> documents_;
  Policy policy_;
  RbacPolicy rbac_;
  std::shared_ptr<const CompiledPolicy> compiled_;
  std::shared_ptr<const Policy> effective_;     // null: policy_ (no exception active)
  std::vector<std::string> active_exceptions_;  // applied in effective_, by name
  std::set<std::string> withheld_exceptions_;   // never applied
  std::vector<Node> backend_nodes_;
};

// The kinds that make up the policy (every kind but Workload and Scenario).
bool is_policy_kind(std::string_view kind);

}  // namespace allot
