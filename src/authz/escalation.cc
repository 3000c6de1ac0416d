#include "authz/escalation.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "authz/builtin_roles.h"
#include "authz/resource_catalog.h"
#include "authz/rule_covers.h"
#include "authz/rule_text.h"

namespace allot {
namespace {

std::string object_text(std::string_view kind, std::string_view namespace_name,
                        std::string_view name) {
  const std::string full = namespace_name.empty()
                               ? std::string(name)
                               : std::string(namespace_name) + "/" + std::string(name);
  return std::string(kind) + " " + in_quotes(full);
}

std::string where(std::string_view namespace_name) {
  return namespace_name.empty() ? "at cluster scope" : "in namespace " + in_quotes(namespace_name);
}

// One write of an RBAC object that grants `rules` where `namespace_name` says.
struct GrantWrite {
  const Principal& principal;
  std::string_view verb;
  std::string object;         // `RoleBinding "vision/b"`
  std::string_view resource;  // roles, clusterroles, rolebindings, clusterrolebindings
  std::string_view namespace_name;
  std::string_view name;
  AccessRequest privilege;               // escalate or bind, which bypasses the covers check
  const std::vector<PolicyRule>* rules;  // null: the referenced role does not exist
  std::string rules_owner;               // `ClusterRole "team-member"`, or "it"
  bool needs_full_authority = false;     // a ClusterRole's aggregationRule
};

// The atomic rules of `rules` that the caller does not hold where the write applies.
std::vector<PolicyRule> missing_rules(const Authorizer& authorizer, const Caller& caller,
                                      std::string_view namespace_name,
                                      const std::vector<PolicyRule>& rules) {
  std::vector<PolicyRule> missing =
      uncovered_rules(authorizer.rules_for(caller, namespace_name), rules);
  if (std::optional<std::vector<PolicyRule>> scope =
          authorizer.scope_rules_for(caller, namespace_name)) {
    for (PolicyRule& atom : uncovered_rules(*scope, rules)) {
      if (std::find(missing.begin(), missing.end(), atom) == missing.end()) {
        missing.push_back(std::move(atom));
      }
    }
  }
  return missing;
}

std::string missing_text(const std::vector<PolicyRule>& missing) {
  std::string text = describe_rule(missing.front());
  if (missing.size() > 1) text += " and " + std::to_string(missing.size() - 1) + " more";
  return text;
}

Decision refuse(const std::string& caller, const GrantWrite& write, const std::string& reason) {
  Decision decision;
  decision.why = caller + " cannot " + std::string(write.verb) + " " + write.object + ": " +
                 reason + ", and no binding grants " + std::string(write.privilege.verb) + " on it";
  return decision;
}

Decision check_grant_write(const Authorizer& authorizer, const GrantWrite& write) {
  const Caller caller = authorizer.resolve(write.principal);
  Decision decision = authorizer.authorize(
      caller, {write.verb, kRbacApiGroup, write.resource, write.namespace_name, write.name});
  if (!decision.allowed) return decision;
  const std::string who = describe_caller(caller.subject);
  const Decision privileged = authorizer.authorize(caller, write.privilege);
  if (privileged.allowed) {
    decision.why = who + " may " + std::string(write.verb) + " " + write.object + ": " +
                   privileged.binding + " grants " + std::string(write.privilege.verb) + " (" +
                   privileged.rule + ")";
    return decision;
  }
  if (write.rules == nullptr) return refuse(who, write, write.rules_owner + " does not exist");
  const std::vector<PolicyRule> missing =
      missing_rules(authorizer, caller, write.namespace_name, *write.rules);
  if (!missing.empty()) {
    return refuse(who, write,
                  write.rules_owner + " grants " + missing_text(missing) + ", which " + who +
                      " does not hold " + where(write.namespace_name));
  }
  if (write.needs_full_authority &&
      !missing_rules(authorizer, caller, {}, builtin_cluster_roles().front().rules).empty()) {
    return refuse(who, write, "an aggregationRule needs every permission there is");
  }
  decision.why = who + " may " + std::string(write.verb) + " " + write.object + ": " + who +
                 " holds every permission of " + write.rules_owner + " " +
                 where(write.namespace_name) + " (and " + decision.binding + " grants the write)";
  return decision;
}

}  // namespace

Decision check_role_write(const Authorizer& authorizer, const Principal& principal,
                          std::string_view verb, const Role& role) {
  const ObjectMeta& meta = role.meta;
  return check_grant_write(
      authorizer,
      {principal, verb, object_text("Role", meta.namespace_name, meta.name), "roles",
       meta.namespace_name, meta.name,
       AccessRequest{"escalate", kRbacApiGroup, "roles", meta.namespace_name, meta.name},
       &role.rules, "it", false});
}

Decision check_cluster_role_write(const Authorizer& authorizer, const Principal& principal,
                                  std::string_view verb, const ClusterRole& role) {
  const ObjectMeta& meta = role.meta;
  return check_grant_write(authorizer,
                           {principal,
                            verb,
                            object_text("ClusterRole", {}, meta.name),
                            "clusterroles",
                            {},
                            meta.name,
                            AccessRequest{"escalate", kRbacApiGroup, "clusterroles", {}, meta.name},
                            &role.rules,
                            "it",
                            role.aggregation.has_value()});
}

Decision check_role_binding_write(const Authorizer& authorizer, const Principal& principal,
                                  std::string_view verb, const RoleBinding& binding) {
  const ObjectMeta& meta = binding.meta;
  const RoleRef& ref = binding.role_ref;
  const bool cluster_role = ref.kind == RoleRefKind::kClusterRole;
  return check_grant_write(
      authorizer, {principal, verb, object_text("RoleBinding", meta.namespace_name, meta.name),
                   "rolebindings", meta.namespace_name, meta.name,
                   AccessRequest{"bind", kRbacApiGroup, cluster_role ? "clusterroles" : "roles",
                                 meta.namespace_name, ref.name},
                   authorizer.role_rules(ref.kind, ref.name, meta.namespace_name),
                   cluster_role ? object_text("ClusterRole", {}, ref.name)
                                : object_text("Role", meta.namespace_name, ref.name),
                   false});
}

Decision check_cluster_role_binding_write(const Authorizer& authorizer, const Principal& principal,
                                          std::string_view verb,
                                          const ClusterRoleBinding& binding) {
  const RoleRef& ref = binding.role_ref;
  if (ref.kind != RoleRefKind::kClusterRole) {
    Decision decision;
    decision.why =
        "a ClusterRoleBinding must reference a ClusterRole, not Role " + in_quotes(ref.name);
    return decision;
  }
  return check_grant_write(authorizer,
                           {principal,
                            verb,
                            object_text("ClusterRoleBinding", {}, binding.meta.name),
                            "clusterrolebindings",
                            {},
                            binding.meta.name,
                            AccessRequest{"bind", kRbacApiGroup, "clusterroles", {}, ref.name},
                            authorizer.role_rules(ref.kind, ref.name, {}),
                            object_text("ClusterRole", {}, ref.name),
                            false});
}

}  // namespace allot
