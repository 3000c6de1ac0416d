// Authorizer: RBAC with Kubernetes' semantics, compiled into an index sized
// for issue 11's goal (p99 <= 2 us with 1,000 namespaces, 10,000 bindings
// and 50 groups per caller; bench/authz_bench.cc measures it).
//
// Contract: built once from an RbacPolicy (with_builtin_roles() first, when
// the built-ins should apply), then immutable: every const method is safe to
// call from many threads at once. Pure: no I/O, no clock; the same policy
// and request give the same Decision.
//
// Semantics: additive, no deny. A ClusterRoleBinding grants its ClusterRole
// everywhere (cluster-scoped resources, every namespace, non-resource URLs);
// a RoleBinding grants its Role or ClusterRole in its own namespace only,
// never cluster-scoped resources or URLs. A binding's subjects match the
// caller by user name, by any of its groups, or as a ServiceAccount
// ("system:serviceaccount:NS:NAME", which is also in the groups
// "system:serviceaccounts" and "system:serviceaccounts:NS"). A binding whose
// role does not exist, or a ClusterRoleBinding that names a Role, grants
// nothing. Aggregated ClusterRoles are resolved when the policy is compiled
// (role_aggregation.h). A session scope (Principal::scope) further limits the
// caller to what its role grants in its namespace.
//
// Index: subject names (users, groups, service accounts) are interned to
// dense ids; ClusterRoleBinding grants are a row per subject id; RoleBinding
// grants are, per namespace, a row of (subject id, binding) sorted by
// subject; each set of rows is flattened into one array. A request costs one
// hash lookup per caller name (resolve(), which a caller with many checks
// does once), one for the namespace, and a merge of two sorted id lists.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "authz/access_request.h"
#include "authz/decision.h"
#include "authz/name_table.h"
#include "model/principal.h"
#include "model/rbac/rbac_policy.h"

namespace allot {

// A principal as the index knows it: the ids of its user name and of those
// of its groups that some binding names. Made by Authorizer::resolve(); only
// meaningful to the Authorizer that made it.
struct Caller {
  std::string subject;
  std::vector<uint32_t> subject_ids;  // sorted, unique
  std::optional<SessionScope> scope;
  uint32_t scope_role = kNoId;  // the compiled role of the scope; kNoId: none
};

class Authorizer {
 public:
  explicit Authorizer(const RbacPolicy& policy);

  [[nodiscard]] Caller resolve(const Principal& principal) const;

  // The decision with its reasons. The convenience form resolves the caller
  // and takes the resource's API group from resource_catalog.h.
  [[nodiscard]] Decision authorize(const Caller& caller, const AccessRequest& request) const;
  [[nodiscard]] Decision authorize(const Principal& principal, std::string_view verb,
                                   std::string_view resource, std::string_view namespace_name,
                                   std::string_view name = {}) const;
  // Only whether it is allowed: no text is built (filters of long lists).
  [[nodiscard]] bool allows(const Caller& caller, const AccessRequest& request) const;
  // A non-resource request ("get /metrics"): ClusterRoleBindings only.
  [[nodiscard]] Decision authorize_path(const Caller& caller, std::string_view verb,
                                        std::string_view path) const;

  // Every rule the caller holds in `namespace_name` (its ClusterRoleBindings'
  // rules and, for a namespace, the resource rules of its RoleBindings there),
  // for the escalation checks. Empty namespace: the cluster-wide rules only.
  [[nodiscard]] std::vector<PolicyRule> rules_for(const Caller& caller,
                                                  std::string_view namespace_name) const;
  // For a scoped caller, the rules its scope grants in `namespace_name`
  // (none outside the scope's namespace); nullopt for an unscoped caller.
  [[nodiscard]] std::optional<std::vector<PolicyRule>> scope_rules_for(
      const Caller& caller, std::string_view namespace_name) const;

  // The namespaces in which `request` (its namespace ignored) is allowed by a
  // RoleBinding, sorted; and whether a ClusterRoleBinding allows it everywhere.
  struct Reach {
    bool everywhere = false;
    std::vector<std::string> namespaces;
  };
  [[nodiscard]] Reach reach(const Caller& caller, const AccessRequest& request) const;

  // The rules of a role, aggregation resolved; nullptr when it does not exist.
  [[nodiscard]] const std::vector<PolicyRule>* role_rules(RoleRefKind kind, std::string_view name,
                                                          std::string_view namespace_name) const;

 private:
  struct CompiledRole {
    std::string label;  // `ClusterRole "team-member"`, `Role "vision/ci"`
    std::vector<PolicyRule> rules;
    std::vector<std::string> rule_texts;  // describe_rule() of each, written once
  };
  struct CompiledBinding {
    std::string label;  // `RoleBinding "vision/members"`, `ClusterRoleBinding "admins"`
    std::string namespace_name;
    uint32_t role = kNoId;
  };
  struct SubjectGrant {
    uint32_t subject = kNoId;
    uint32_t binding = kNoId;
    friend bool operator==(const SubjectGrant&, const SubjectGrant&) = default;
  };
  struct Grant {
    uint32_t binding = kNoId;
    uint32_t rule = kNoId;
  };

  void add_roles(const RbacPolicy& policy);
  void finish_index();
  void add_cluster_role_binding(const ClusterRoleBinding& binding);
  void add_role_binding(const RoleBinding& binding);
  // `binding_namespace`: where a ServiceAccount without a namespace lives
  // (a RoleBinding's, as in Kubernetes); empty for ClusterRoleBindings.
  uint32_t intern_subject(const Subject& subject, const std::string& binding_namespace);
  uint32_t find_role(RoleRefKind kind, std::string_view name,
                     std::string_view namespace_name) const;

  std::optional<Grant> find_grant(const Caller& caller, const AccessRequest& request) const;
  std::optional<uint32_t> matching_rule(uint32_t binding, const AccessRequest& request) const;
  bool scope_allows(const Caller& caller, const AccessRequest& request) const;
  Decision allowed(const Caller& caller, const AccessRequest& request, Grant grant) const;
  Decision denied(const Caller& caller, const AccessRequest& request) const;

  // Lists of T per key, flattened (compressed rows): rows(k) is
  // items[offsets[k], offsets[k + 1]). One allocation instead of one per key.
  template <typename T>
  struct Rows {
    std::vector<uint32_t> offsets{0};
    std::vector<T> items;
    [[nodiscard]] std::span<const T> row(uint32_t key) const {
      return {items.data() + offsets[key], items.data() + offsets[key + 1]};
    }
  };
  template <typename T>
  static Rows<T> flatten(std::vector<std::vector<T>> lists);

  std::vector<CompiledRole> roles_;  // ClusterRoles first (index = their table id), then Roles
  NameTable cluster_role_names_;
  NameTable role_names_;  // "namespace/name"; roles_ index = ClusterRole count + id
  std::vector<CompiledBinding> bindings_;
  std::vector<uint32_t> binding_roles_;  // bindings_[i].role, dense: what the hot path reads
  NameTable user_names_;                 // user names, "system:serviceaccount:NS:NAME"
  NameTable group_names_;                // group names
  std::vector<uint32_t> user_subjects_;  // user table id -> subject id
  std::vector<uint32_t> group_subjects_;
  uint32_t subject_count_ = 0;
  // Subjects are numbered as bindings name them, ClusterRoleBindings first:
  // only ids below this one have cluster grants, and a caller's sorted ids
  // stop being looked at there.
  uint32_t cluster_subject_end_ = 0;
  NameTable namespace_names_;            // namespace -> id
  Rows<uint32_t> cluster_grants_;        // subject id -> ClusterRoleBindings
  Rows<uint32_t> namespaced_grants_;     // subject id -> RoleBindings
  Rows<SubjectGrant> namespace_grants_;  // namespace id -> grants sorted by subject
  // While compiling only: the rows above, one vector per key.
  struct Building {
    std::vector<std::vector<uint32_t>> cluster_grants;
    std::vector<std::vector<uint32_t>> namespaced_grants;
    std::vector<std::vector<SubjectGrant>> namespace_grants;
  };
  std::unique_ptr<Building> building_;
};

}  // namespace allot
