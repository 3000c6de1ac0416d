// Escalation prevention, one table row per case: who writes which Role,
// ClusterRole or binding, and whether Kubernetes' rules let them.
#include "authz/escalation.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "authz/rule_covers.h"
#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

// Team vision with its built-in bindings; "root" is cluster-admin; "lead"
// holds team-admin in vision plus `bind` on ClusterRole "team-auditor";
// "keeper" holds team-admin in vision plus `escalate` on roles there.
Authorizer org() {
  RbacPolicy policy;
  add_team(policy, "vision");
  add_team(policy, "research");
  policy.cluster_roles.push_back(cluster_role("team-auditor", {rule({"get"}, {"nodes"})}));
  policy.cluster_roles.push_back(cluster_role(
      "may-bind-auditor",
      {rule({"bind"}, {"clusterroles"}, {"rbac.authorization.k8s.io"}, {"team-auditor"})}));
  policy.roles.push_back(
      role("vision", "escalator", {rule({"escalate"}, {"roles"}, {"rbac.authorization.k8s.io"})}));
  policy.cluster_role_bindings.push_back(
      cluster_role_binding("root", "cluster-admin", {user("root")}));
  policy.role_bindings.push_back(
      role_binding("vision", "lead", cluster_role_ref("team-admin"), {user("lead")}));
  policy.role_bindings.push_back(
      role_binding("vision", "lead-bind", cluster_role_ref("may-bind-auditor"), {user("lead")}));
  policy.role_bindings.push_back(
      role_binding("vision", "keeper", cluster_role_ref("team-admin"), {user("keeper")}));
  policy.role_bindings.push_back(
      role_binding("vision", "keeper-esc", role_ref("escalator"), {user("keeper")}));
  return Authorizer(with_builtin_roles(policy));
}

const Principal kVisionAdmin = Principal::user("vadmin", {"vision-admins"});
const Principal kVisionMember = Principal::user("ana", {"vision-members"});
const Principal kLead = Principal::user("lead");
const Principal kKeeper = Principal::user("keeper");
const Principal kRoot = Principal::user("root");

struct BindingWrite {
  std::string what;
  Principal caller;
  RoleBinding binding;
  bool allowed;
  std::string why_part;
};

TEST(Escalation, RoleBindings) {
  const Authorizer authorizer = org();
  auto binding = [](std::string ns, std::string role) {
    return role_binding(std::move(ns), "new", cluster_role_ref(std::move(role)), {user("bob")});
  };
  const std::vector<BindingWrite> cases = {
      {"team-admin binds team-member in its namespace", kVisionAdmin,
       binding("vision", "team-member"), true, "holds every permission of ClusterRole"},
      {"team-admin binds team-admin in its namespace", kVisionAdmin,
       binding("vision", "team-admin"), true, ""},
      {"team-admin cannot bind cluster-admin, even in its own namespace", kVisionAdmin,
       binding("vision", "cluster-admin"), false,
       "ClusterRole \"cluster-admin\" grants verbs [*] on [*] in apiGroups [*]"},
      {"team-admin cannot bind a role with cluster-scoped rules", kVisionAdmin,
       binding("vision", "team-auditor"), false, "does not hold in namespace \"vision\""},
      {"team-admin cannot write bindings in another team", kVisionAdmin,
       binding("research", "team-viewer"), false, "no binding grants it"},
      {"team-member cannot write bindings at all", kVisionMember, binding("vision", "team-viewer"),
       false,
       "User \"ana\" cannot create rolebindings \"new\" in namespace \"vision\": no binding grants "
       "it"},
      {"bind on the role lets a team-admin bind it", kLead, binding("vision", "team-auditor"), true,
       "grants bind"},
      {"bind on one role is not bind on another", kLead, binding("vision", "cluster-admin"), false,
       "no binding grants bind on it"},
      {"a missing role needs bind", kVisionAdmin, binding("vision", "ghost"), false,
       "ClusterRole \"ghost\" does not exist"},
      {"cluster-admin binds cluster-admin anywhere", kRoot, binding("research", "cluster-admin"),
       true, "grants bind"},
  };
  for (const BindingWrite& row : cases) {
    const Decision decision =
        check_role_binding_write(authorizer, row.caller, "create", row.binding);
    EXPECT_EQ(decision.allowed, row.allowed) << row.what << ": " << decision.why;
    EXPECT_NE(decision.why.find(row.why_part), std::string::npos)
        << row.what << ": " << decision.why;
  }
}

TEST(Escalation, TeamAdminBindingClusterAdminSaysWhy) {
  const Decision decision = check_role_binding_write(
      org(), kVisionAdmin, "create",
      role_binding("vision", "mine", cluster_role_ref("cluster-admin"), {user("vadmin")}));
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.why,
            "User \"vadmin\" cannot create RoleBinding \"vision/mine\": ClusterRole "
            "\"cluster-admin\" grants verbs [*] on [*] in apiGroups [*] and 1 more, which User "
            "\"vadmin\" does not hold in namespace \"vision\", and no binding grants bind on it");
}

TEST(Escalation, ClusterRoleBindingsNeedThePermissionsClusterWide) {
  const Authorizer authorizer = org();
  const ClusterRoleBinding viewers = cluster_role_binding("all", "team-viewer", {user("bob")});
  // team-admin of vision holds team-viewer's rules in vision only, and may not
  // write ClusterRoleBindings anyway.
  EXPECT_FALSE(
      check_cluster_role_binding_write(authorizer, kVisionAdmin, "create", viewers).allowed);
  EXPECT_TRUE(check_cluster_role_binding_write(authorizer, kRoot, "create", viewers).allowed);
  const ClusterRoleBinding to_role{meta("x"), {user("bob")}, role_ref("escalator")};
  EXPECT_FALSE(check_cluster_role_binding_write(authorizer, kRoot, "create", to_role).allowed);
}

struct RoleWrite {
  std::string what;
  Principal caller;
  Role role;
  bool allowed;
  std::string why_part;
};

TEST(Escalation, Roles) {
  const Authorizer authorizer = org();
  const std::vector<RoleWrite> cases = {
      {"team-admin writes a role within its rights", kVisionAdmin,
       role("vision", "canceller", {rule({"get", "cancel"}, {"workloads"})}), true, ""},
      {"... with resourceNames, narrower still", kVisionAdmin,
       role("vision", "one", {rule({"delete"}, {"workloads"}, {"allot"}, {"w"})}), true, ""},
      {"team-admin cannot grant a verb it lacks", kVisionAdmin,
       role("vision", "binder", {rule({"bind"}, {"roles"}, {"rbac.authorization.k8s.io"})}), false,
       "grants verbs [bind] on [roles]"},
      {"team-admin cannot grant *", kVisionAdmin,
       role("vision", "all", {rule({"*"}, {"workloads"})}), false,
       "grants verbs [*] on [workloads]"},
      {"team-admin cannot grant */logs (every resource's logs)", kVisionAdmin,
       role("vision", "logs", {rule({"get"}, {"*/logs"})}), false, "[*/logs]"},
      {"team-admin cannot write roles in another team", kVisionAdmin,
       role("research", "r", {rule({"get"}, {"workloads"})}), false, "no binding grants it"},
      {"escalate lets a team-admin grant more", kKeeper,
       role("vision", "all", {rule({"*"}, {"*"}, {"*"})}), true, "grants escalate"},
      {"team-member cannot write roles", kVisionMember,
       role("vision", "r", {rule({"get"}, {"events"})}), false, "cannot create roles"},
  };
  for (const RoleWrite& row : cases) {
    const Decision decision = check_role_write(authorizer, row.caller, "create", row.role);
    EXPECT_EQ(decision.allowed, row.allowed) << row.what << ": " << decision.why;
    EXPECT_NE(decision.why.find(row.why_part), std::string::npos)
        << row.what << ": " << decision.why;
  }
}

TEST(Escalation, AnAggregationRuleNeedsEveryPermission) {
  RbacPolicy policy;
  policy.cluster_roles.push_back(cluster_role("all-but-urls", {rule({"*"}, {"*"}, {"*"})}));
  policy.cluster_role_bindings.push_back(
      cluster_role_binding("b", "all-but-urls", {user("almost")}));
  policy.cluster_role_bindings.push_back(
      cluster_role_binding("r", "cluster-admin", {user("root")}));
  const Authorizer authorizer(with_builtin_roles(policy));
  ClusterRole aggregated = cluster_role("agg", {});
  aggregated.aggregation = AggregationRule{{{{"x", "y"}}}};
  const Decision almost =
      check_cluster_role_write(authorizer, Principal::user("almost"), "create", aggregated);
  // "*" on every resource includes escalate on clusterroles: Kubernetes allows it too.
  EXPECT_TRUE(almost.allowed) << almost.why;
  RbacPolicy narrow;
  narrow.cluster_roles.push_back(cluster_role(
      "role-writer", {rule({"create"}, {"clusterroles"}, {"rbac.authorization.k8s.io"})}));
  narrow.cluster_role_bindings.push_back(cluster_role_binding("w", "role-writer", {user("w")}));
  const Authorizer writer(narrow);
  const Decision refused =
      check_cluster_role_write(writer, Principal::user("w"), "create", aggregated);
  EXPECT_FALSE(refused.allowed);
  EXPECT_NE(refused.why.find("an aggregationRule needs every permission there is"),
            std::string::npos)
      << refused.why;
}

struct CoversCase {
  std::string what;
  std::vector<PolicyRule> owner;
  std::vector<PolicyRule> servant;
  bool covered;
};

TEST(Escalation, CoversTable) {
  const std::vector<CoversCase> cases = {
      {"the same rule", {rule({"get"}, {"workloads"})}, {rule({"get"}, {"workloads"})}, true},
      {"a subset of verbs",
       {rule({"get", "list"}, {"workloads"})},
       {rule({"get"}, {"workloads"})},
       true},
      {"spread over two owner rules",
       {rule({"get"}, {"workloads"}), rule({"list"}, {"workloads"})},
       {rule({"get", "list"}, {"workloads"})},
       true},
      {"* covers a verb", {rule({"*"}, {"workloads"})}, {rule({"cancel"}, {"workloads"})}, true},
      {"a verb list does not cover *",
       {rule({"get", "list"}, {"workloads"})},
       {rule({"*"}, {"workloads"})},
       false},
      {"resource * covers a subresource",
       {rule({"get"}, {"*"})},
       {rule({"get"}, {"workloads/logs"})},
       true},
      {"*/logs covers workloads/logs",
       {rule({"get"}, {"*/logs"})},
       {rule({"get"}, {"workloads/logs"})},
       true},
      {"a resource does not cover its subresource",
       {rule({"get"}, {"workloads"})},
       {rule({"get"}, {"workloads/logs"})},
       false},
      {"names cover the same names",
       {rule({"get"}, {"workloads"}, {"allot"}, {"a", "b"})},
       {rule({"get"}, {"workloads"}, {"allot"}, {"a"})},
       true},
      {"names do not cover every name",
       {rule({"get"}, {"workloads"}, {"allot"}, {"a"})},
       {rule({"get"}, {"workloads"})},
       false},
      {"no names covers any names",
       {rule({"get"}, {"workloads"})},
       {rule({"get"}, {"workloads"}, {"allot"}, {"a"})},
       true},
      {"group * covers a group",
       {rule({"get"}, {"roles"}, {"*"})},
       {rule({"get"}, {"roles"}, {"rbac.authorization.k8s.io"})},
       true},
      {"a URL prefix covers a path",
       {url_rule({"get"}, {"/metrics/*"})},
       {url_rule({"get"}, {"/metrics/a"})},
       true},
      {"a resource rule does not cover a URL",
       {rule({"*"}, {"*"}, {"*"})},
       {url_rule({"get"}, {"/metrics"})},
       false},
      {"nothing covers something", {}, {rule({"get"}, {"events"})}, false},
      {"anything covers nothing", {}, {}, true},
  };
  for (const CoversCase& row : cases) {
    EXPECT_EQ(uncovered_rules(row.owner, row.servant).empty(), row.covered) << row.what;
  }
}

}  // namespace
}  // namespace allot
