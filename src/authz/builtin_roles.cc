#include "authz/builtin_roles.h"

#include <algorithm>
#include <string>
#include <utility>

#include "authz/resource_catalog.h"

namespace allot {
namespace {

ClusterRole cluster_role(std::string_view name, std::vector<PolicyRule> rules) {
  ClusterRole role;
  role.meta.name = std::string(name);
  role.meta.labels["allot.dev/builtin"] = "true";
  role.rules = std::move(rules);
  return role;
}

std::vector<std::string> reading() { return {"get", "list", "watch"}; }

PolicyRule team_reading() {
  return {reading(),
          {std::string(kAllotApiGroup)},
          {"workloads", "workloads/logs", "events", "reports", "metrics"},
          {},
          {}};
}

// A team's Budgets and PolicyExceptions are cluster-scoped objects that its
// roles read in the team's namespace (PolicyService: each is read where its
// team lives).
PolicyRule team_budget_reading() {
  return {reading(), {std::string(kAllotApiGroup)}, {"budgets", "policyexceptions"}, {}, {}};
}

ClusterRole team_admin() {
  const std::vector<std::string> every = {
      "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "cancel"};
  return cluster_role(
      kTeamAdmin,
      {{every,
        {std::string(kAllotApiGroup)},
        {"workloads", "workloads/logs", "workloads/exec", "workloads/scale", "workloads/checkpoint",
         "workloads/resume", "events", "reports", "metrics", "serviceaccounts",
         "serviceaccounts/token"},
        {},
        {}},
       {every, {std::string(kRbacApiGroup)}, {"roles", "rolebindings"}, {}, {}},
       team_budget_reading(),
       // Requests a PolicyException for its team (Requested until
       // its approver approves it: exception_state.h).
       {{"create", "update"}, {std::string(kAllotApiGroup)}, {"policyexceptions"}, {}, {}}});
}

// Issue 15: decides the lifecycle of connection contracts (and may draft
// them), grants and withdraws policy exceptions; reads what a contract or an
// exception refers to.
ClusterRole contract_approver() {
  const std::string group(kAllotApiGroup);
  return cluster_role(kContractApprover,
                      {{{"get", "list", "watch", "create", "update", "approve", "activate",
                         "review", "renew", "revoke"},
                        {group},
                        {"contracts"},
                        {},
                        {}},
                       {{"get"}, {group}, {"contracts/evidence"}, {}, {}},
                       {{"get", "list", "watch", "create", "update", "delete"},
                        {group},
                        {"policyexceptions"},
                        {},
                        {}},
                       {reading(), {group}, {"organizations", "clusters", "teams"}, {}, {}}});
}

template <typename T>
void replace_by_name(std::vector<T>& objects, std::vector<T> builtins) {
  std::erase_if(objects, [&](const T& object) {
    return std::any_of(builtins.begin(), builtins.end(),
                       [&](const T& builtin) { return builtin.meta.name == object.meta.name; });
  });
  objects.insert(objects.begin(), std::make_move_iterator(builtins.begin()),
                 std::make_move_iterator(builtins.end()));
}

}  // namespace

std::vector<ClusterRole> builtin_cluster_roles() {
  return {
      cluster_role(kClusterAdmin, {{{"*"}, {"*"}, {"*"}, {}, {}}, {{"*"}, {}, {}, {}, {"*"}}}),
      team_admin(),
      cluster_role(kTeamMember,
                   {team_reading(),
                    team_budget_reading(),
                    {{"create", "cancel"}, {std::string(kAllotApiGroup)}, {"workloads"}, {}, {}},
                    {{"create"}, {std::string(kAllotApiGroup)}, {"workloads/checkpoint"}, {}, {}},
                    {{"update"}, {std::string(kAllotApiGroup)}, {"workloads/resume"}, {}, {}}}),
      cluster_role(kTeamViewer, {team_reading(), team_budget_reading()}),
      contract_approver(),
  };
}

std::vector<ClusterRoleBinding> builtin_cluster_role_bindings() {
  ClusterRoleBinding admins;
  admins.meta.name = std::string(kAdminsBinding);
  admins.subjects = {{SubjectKind::kGroup, std::string(kAdminsGroup), {}}};
  admins.role_ref = {RoleRefKind::kClusterRole, std::string(kClusterAdmin)};
  return {admins};
}

RbacPolicy with_builtin_roles(RbacPolicy policy) {
  replace_by_name(policy.cluster_roles, builtin_cluster_roles());
  replace_by_name(policy.cluster_role_bindings, builtin_cluster_role_bindings());
  return policy;
}

}  // namespace allot
