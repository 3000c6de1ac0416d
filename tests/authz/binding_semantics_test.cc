// Kubernetes RBAC binding semantics, one table row per behaviour: which
// bindings reach which caller, where. Every row's policy holds the rule
// "get, list workloads" as ClusterRole "reader" and as Role "vision/reader".
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "authz/authorizer.h"
#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

struct BindingCase {
  std::string what;
  std::vector<RoleBinding> role_bindings;
  std::vector<ClusterRoleBinding> cluster_role_bindings;
  Principal caller;
  std::string verb;
  std::string resource;
  std::string namespace_name;
  bool allowed;
};

RbacPolicy policy_of(const BindingCase& row) {
  const PolicyRule reading = rule({"get", "list"}, {"workloads"});
  RbacPolicy policy;
  policy.cluster_roles.push_back(cluster_role("reader", {reading}));
  policy.cluster_roles.push_back(cluster_role("node-reader", {rule({"get"}, {"nodes"})}));
  policy.roles.push_back(role("vision", "reader", {reading}));
  policy.role_bindings = row.role_bindings;
  policy.cluster_role_bindings = row.cluster_role_bindings;
  return policy;
}

const Principal kAna = Principal::user("ana", {"vision-devs", "everyone"});
const Principal kCi = Principal::user("system:serviceaccount:vision:ci");
const Principal kOtherCi = Principal::user("system:serviceaccount:research:ci");

std::vector<BindingCase> binding_cases() {
  const RoleRef reader = cluster_role_ref("reader");
  return {
      // what | RoleBindings | ClusterRoleBindings | caller | verb, resource, namespace | allowed
      {"a ClusterRoleBinding grants in every namespace",
       {},
       {cluster_role_binding("b", "reader", {user("ana")})},
       kAna,
       "list",
       "workloads",
       "research",
       true},
      {"a ClusterRoleBinding grants at cluster scope",
       {},
       {cluster_role_binding("b", "reader", {user("ana")})},
       kAna,
       "list",
       "workloads",
       "",
       true},
      {"a ClusterRoleBinding grants cluster-scoped resources",
       {},
       {cluster_role_binding("b", "node-reader", {user("ana")})},
       kAna,
       "get",
       "nodes",
       "",
       true},
      {"a RoleBinding to a ClusterRole grants in its namespace",
       {role_binding("vision", "b", reader, {user("ana")})},
       {},
       kAna,
       "list",
       "workloads",
       "vision",
       true},
      {"... not in another namespace",
       {role_binding("vision", "b", reader, {user("ana")})},
       {},
       kAna,
       "list",
       "workloads",
       "research",
       false},
      {"... not across namespaces (cluster scope)",
       {role_binding("vision", "b", reader, {user("ana")})},
       {},
       kAna,
       "list",
       "workloads",
       "",
       false},
      {"... not cluster-scoped resources",
       {role_binding("vision", "b", cluster_role_ref("node-reader"), {user("ana")})},
       {},
       kAna,
       "get",
       "nodes",
       "",
       false},
      {"a RoleBinding to a Role of its namespace",
       {role_binding("vision", "b", role_ref("reader"), {user("ana")})},
       {},
       kAna,
       "get",
       "workloads",
       "vision",
       true},
      {"a RoleBinding cannot reach a Role of another namespace",
       {role_binding("research", "b", role_ref("reader"), {user("ana")})},
       {},
       kAna,
       "get",
       "workloads",
       "research",
       false},
      {"a ClusterRoleBinding to a Role grants nothing",
       {},
       {{meta("b"), {user("ana")}, role_ref("reader")}},
       kAna,
       "get",
       "workloads",
       "vision",
       false},
      {"a binding to a missing role grants nothing",
       {role_binding("vision", "b", cluster_role_ref("ghost"), {user("ana")})},
       {},
       kAna,
       "get",
       "workloads",
       "vision",
       false},
      {"a Group subject: a member",
       {role_binding("vision", "b", reader, {group("vision-devs")})},
       {},
       kAna,
       "get",
       "workloads",
       "vision",
       true},
      {"a Group subject: not a user of that name",
       {role_binding("vision", "b", reader, {group("ana")})},
       {},
       kAna,
       "get",
       "workloads",
       "vision",
       false},
      {"a User subject: not a group of that name",
       {role_binding("vision", "b", reader, {user("vision-devs")})},
       {},
       kAna,
       "get",
       "workloads",
       "vision",
       false},
      {"names are case-sensitive",
       {role_binding("vision", "b", reader, {user("Ana")})},
       {},
       kAna,
       "get",
       "workloads",
       "vision",
       false},
      {"a ServiceAccount subject",
       {role_binding("vision", "b", reader, {service_account("vision", "ci")})},
       {},
       kCi,
       "get",
       "workloads",
       "vision",
       true},
      {"a ServiceAccount of a RoleBinding defaults to its namespace",
       {role_binding("vision", "b", reader, {service_account("", "ci")})},
       {},
       kCi,
       "get",
       "workloads",
       "vision",
       true},
      {"a ServiceAccount of another namespace",
       {role_binding("vision", "b", reader, {service_account("vision", "ci")})},
       {},
       kOtherCi,
       "get",
       "workloads",
       "vision",
       false},
      {"a ServiceAccount as a User subject",
       {role_binding("vision", "b", reader, {user("system:serviceaccount:vision:ci")})},
       {},
       kCi,
       "get",
       "workloads",
       "vision",
       true},
      {"the group of a namespace's service accounts",
       {role_binding("vision", "b", reader, {group("system:serviceaccounts:vision")})},
       {},
       kCi,
       "get",
       "workloads",
       "vision",
       true},
      {"... not those of another namespace",
       {role_binding("vision", "b", reader, {group("system:serviceaccounts:vision")})},
       {},
       kOtherCi,
       "get",
       "workloads",
       "vision",
       false},
      {"the group of every service account",
       {role_binding("vision", "b", reader, {group("system:serviceaccounts")})},
       {},
       kOtherCi,
       "get",
       "workloads",
       "vision",
       true},
      {"a user is not a service account",
       {role_binding("vision", "b", reader, {group("system:serviceaccounts")})},
       {},
       kAna,
       "get",
       "workloads",
       "vision",
       false},
      {"additive: one of many bindings suffices",
       {role_binding("vision", "a", cluster_role_ref("node-reader"), {user("ana")}),
        role_binding("vision", "b", reader, {group("everyone")})},
       {},
       kAna,
       "list",
       "workloads",
       "vision",
       true},
      {"additive: still nothing nobody granted",
       {role_binding("vision", "b", reader, {group("everyone")})},
       {},
       kAna,
       "delete",
       "workloads",
       "vision",
       false},
  };
}

TEST(BindingSemantics, EachRowAsKubernetesDecidesIt) {
  for (const BindingCase& row : binding_cases()) {
    const Authorizer authorizer(policy_of(row));
    const Decision decision =
        authorizer.authorize(row.caller, row.verb, row.resource, row.namespace_name, "w");
    EXPECT_EQ(decision.allowed, row.allowed) << row.what << ": " << decision.why;
  }
}

TEST(BindingSemantics, AllowNamesTheBindingTheRoleAndTheRule) {
  RbacPolicy policy = with_builtin_roles({});
  add_team(policy, "vision");
  const Authorizer authorizer(policy);
  const Decision decision = authorizer.authorize(Principal::user("ana", {"vision-members"}),
                                                 "cancel", "workloads", "vision", "train-1");
  EXPECT_TRUE(decision.allowed);
  EXPECT_EQ(decision.binding, "RoleBinding \"vision/members\"");
  EXPECT_EQ(decision.role, "ClusterRole \"team-member\"");
  EXPECT_EQ(decision.rule, "verbs [create, cancel] on [workloads] in apiGroups [allot]");
  EXPECT_EQ(decision.why,
            "User \"ana\" may cancel workloads \"train-1\" in namespace \"vision\": RoleBinding "
            "\"vision/members\" grants ClusterRole \"team-member\" (verbs [create, cancel] on "
            "[workloads] in apiGroups [allot])");
}

TEST(BindingSemantics, DenialSaysWhoWhatWhereAndWhy) {
  RbacPolicy policy = with_builtin_roles({});
  add_team(policy, "vision");
  const Authorizer authorizer(policy);
  const Decision decision = authorizer.authorize(Principal::user("ana", {"vision-viewers"}),
                                                 "cancel", "workloads", "vision");
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.why,
            "User \"ana\" cannot cancel workloads in namespace \"vision\": no binding grants it");
  EXPECT_TRUE(decision.binding.empty() && decision.role.empty() && decision.rule.empty());
  EXPECT_EQ(authorizer
                .authorize(Principal::user("system:serviceaccount:vision:ci"), "delete", "nodes",
                           "", "n1")
                .why,
            "ServiceAccount \"vision/ci\" cannot delete nodes \"n1\" at cluster scope: no binding "
            "grants it");
}

TEST(BindingSemantics, AllotdsOwnPrincipalsAreAdminsThroughTheBuiltInBinding) {
  const Authorizer authorizer(with_builtin_roles({}));
  for (const Principal& admin : {Principal::anonymous_admin(), Principal::system()}) {
    const Decision decision = authorizer.authorize(admin, "delete", "nodes", "", "n1");
    EXPECT_TRUE(decision.allowed) << decision.why;
    EXPECT_EQ(decision.binding, "ClusterRoleBinding \"system:admins\"");
  }
  // The admin flag alone (caller_rights' legacy) grants nothing here.
  EXPECT_FALSE(authorizer.authorize({"mallory", {}, true}, "get", "nodes", "", "n1").allowed);
}

TEST(BindingSemantics, BuiltInsCannotBeRedefined) {
  RbacPolicy policy;
  policy.cluster_roles.push_back(cluster_role("team-viewer", {rule({"*"}, {"*"}, {"*"})}));
  policy.role_bindings.push_back(
      role_binding("vision", "b", cluster_role_ref("team-viewer"), {user("ana")}));
  const Authorizer authorizer(with_builtin_roles(policy));
  EXPECT_FALSE(
      authorizer.authorize(Principal::user("ana"), "delete", "workloads", "vision", "w").allowed);
  EXPECT_TRUE(
      authorizer.authorize(Principal::user("ana"), "get", "workloads", "vision", "w").allowed);
}

}  // namespace
}  // namespace allot
