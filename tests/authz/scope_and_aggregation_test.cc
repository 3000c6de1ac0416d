// ClusterRole aggregation, session scopes (a session bound to one team and
// one role) and visibility (where a caller may list).
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "authz/escalation.h"
#include "authz/role_aggregation.h"
#include "authz/visibility.h"
#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

ClusterRole labelled(std::string name, std::map<std::string, std::string> labels,
                     std::vector<PolicyRule> rules) {
  ClusterRole role = cluster_role(std::move(name), std::move(rules));
  role.meta.labels = std::move(labels);
  return role;
}

ClusterRole aggregating(std::string name,
                        std::vector<std::map<std::string, std::string>> selectors) {
  ClusterRole role = cluster_role(std::move(name), {rule({"delete"}, {"nodes"})});  // replaced
  role.aggregation = AggregationRule{std::move(selectors)};
  return role;
}

TEST(Aggregation, UnionOfTheMatchingRolesReplacesItsOwnRules) {
  const std::vector<ClusterRole> roles = aggregate_cluster_roles({
      aggregating("monitoring", {{{"aggregate-to-monitoring", "true"}}}),
      labelled("a", {{"aggregate-to-monitoring", "true"}}, {rule({"get"}, {"workloads"})}),
      labelled("b", {{"aggregate-to-monitoring", "true"}, {"x", "y"}},
               {rule({"get"}, {"events"}), rule({"get"}, {"workloads"})}),
      labelled("c", {{"aggregate-to-monitoring", "false"}}, {rule({"get"}, {"nodes"})}),
  });
  EXPECT_EQ(roles[0].rules,
            (std::vector<PolicyRule>{rule({"get"}, {"workloads"}), rule({"get"}, {"events"})}));
}

TEST(Aggregation, NestsAndSurvivesCyclesAndEmptySelectors) {
  const std::vector<ClusterRole> roles = aggregate_cluster_roles({
      [] {
        ClusterRole top = aggregating("top", {{{"to", "top"}}});
        top.meta.labels = {{"to", "middle"}};
        return top;
      }(),
      [] {
        ClusterRole middle = aggregating("middle", {{{"to", "middle"}}});
        middle.meta.labels = {{"to", "top"}};
        return middle;
      }(),
      labelled("leaf", {{"to", "middle"}}, {rule({"get"}, {"events"})}),
      aggregating("empty", {{}}),
  });
  EXPECT_EQ(roles[0].rules, std::vector<PolicyRule>{rule({"get"}, {"events"})});
  EXPECT_EQ(roles[1].rules, std::vector<PolicyRule>{rule({"get"}, {"events"})});
  EXPECT_TRUE(roles[3].rules.empty());
}

TEST(Aggregation, TheAuthorizerGrantsTheAggregatedRules) {
  RbacPolicy policy;
  policy.cluster_roles.push_back(aggregating("ops", {{{"to-ops", "true"}}}));
  policy.cluster_roles.push_back(
      labelled("drain", {{"to-ops", "true"}}, {rule({"update"}, {"nodes"})}));
  policy.cluster_role_bindings.push_back(cluster_role_binding("b", "ops", {user("ana")}));
  const Authorizer authorizer(policy);
  EXPECT_TRUE(authorizer.authorize(Principal::user("ana"), "update", "nodes", "", "n").allowed);
  EXPECT_FALSE(authorizer.authorize(Principal::user("ana"), "delete", "nodes", "", "n").allowed);
}

Authorizer two_teams() {
  RbacPolicy policy = with_builtin_roles({});
  add_team(policy, "vision");
  add_team(policy, "research");
  return Authorizer(policy);
}

Principal scoped(std::string role, std::string ns) {
  Principal ana = Principal::user("ana", {"vision-admins", "research-viewers"});
  ana.scope = SessionScope{std::move(ns), std::move(role)};
  return ana;
}

TEST(SessionScope, LimitsTheCallerToItsRoleInItsNamespace) {
  const Authorizer authorizer = two_teams();
  const Principal viewer = scoped("team-viewer", "vision");
  EXPECT_TRUE(authorizer.authorize(viewer, "get", "workloads", "vision", "w").allowed);
  const Decision cancel = authorizer.authorize(viewer, "cancel", "workloads", "vision", "w");
  EXPECT_FALSE(cancel.allowed);
  EXPECT_EQ(cancel.why,
            "User \"ana\" cannot cancel workloads \"w\" in namespace \"vision\": the session is "
            "limited to ClusterRole \"team-viewer\" in namespace \"vision\"");
  // Outside the session's namespace nothing, even what the bindings grant.
  EXPECT_FALSE(authorizer.authorize(viewer, "get", "workloads", "research", "w").allowed);
  // The scope never adds: team-admin in research is not held.
  EXPECT_FALSE(
      authorizer.authorize(scoped("team-admin", "research"), "cancel", "workloads", "research", "w")
          .allowed);
  EXPECT_EQ(authorizer.authorize(scoped("ghost", "vision"), "get", "workloads", "vision", "w").why,
            "User \"ana\" cannot get workloads \"w\" in namespace \"vision\": the session's role "
            "\"ghost\" does not exist");
}

TEST(SessionScope, EscalationCountsOnlyWhatTheSessionHolds) {
  const Authorizer authorizer = two_teams();
  const RoleBinding member_binding =
      role_binding("vision", "new", cluster_role_ref("team-member"), {user("bob")});
  EXPECT_TRUE(
      check_role_binding_write(authorizer, scoped("team-admin", "vision"), "create", member_binding)
          .allowed);
  EXPECT_FALSE(check_role_binding_write(authorizer, scoped("team-viewer", "vision"), "create",
                                        member_binding)
                   .allowed);
}

TEST(Visibility, WhereACallerMayListWorkloads) {
  const Authorizer authorizer = two_teams();
  EXPECT_EQ(visible_namespaces(authorizer, Principal::user("ana", {"vision-viewers"})),
            (NamespaceVisibility{false, {"vision"}}));
  EXPECT_EQ(
      visible_namespaces(authorizer, Principal::user("ana", {"research-members", "vision-admins"})),
      (NamespaceVisibility{false, {"research", "vision"}}));
  EXPECT_EQ(visible_namespaces(authorizer, Principal::anonymous_admin()),
            (NamespaceVisibility{true, {}}));
  const NamespaceVisibility nobody = visible_namespaces(authorizer, Principal::user("nobody"));
  EXPECT_EQ(nobody, (NamespaceVisibility{false, {}}));
  EXPECT_FALSE(nobody.contains("vision"));
  EXPECT_EQ(visible_namespaces(authorizer, scoped("team-viewer", "research")),
            (NamespaceVisibility{false, {"research"}}));
  // Seeing is not acting: a viewer lists but cannot cancel anywhere.
  EXPECT_EQ(visible_namespaces(authorizer, Principal::user("ana", {"vision-viewers"}), "cancel"),
            (NamespaceVisibility{false, {}}));
}

TEST(Visibility, ClusterGrantsSeeEverywhereButNamedRulesNeverList) {
  RbacPolicy policy;
  policy.cluster_roles.push_back(cluster_role("list-all", {rule({"list"}, {"workloads"})}));
  policy.cluster_roles.push_back(
      cluster_role("get-one", {rule({"get", "list"}, {"workloads"}, {"allot"}, {"w"})}));
  policy.cluster_role_bindings.push_back(cluster_role_binding("a", "list-all", {user("ops")}));
  policy.cluster_role_bindings.push_back(cluster_role_binding("b", "get-one", {user("ana")}));
  policy.role_bindings.push_back(
      role_binding("vision", "c", cluster_role_ref("get-one"), {user("bob")}));
  const Authorizer authorizer(policy);
  EXPECT_EQ(visible_namespaces(authorizer, Principal::user("ops")),
            (NamespaceVisibility{true, {}}));
  // resourceNames never allow list: naming one workload is not seeing a namespace.
  EXPECT_EQ(visible_namespaces(authorizer, Principal::user("ana")),
            (NamespaceVisibility{false, {}}));
  EXPECT_EQ(visible_namespaces(authorizer, Principal::user("bob")),
            (NamespaceVisibility{false, {}}));
  EXPECT_TRUE(
      authorizer.authorize(Principal::user("bob"), "get", "workloads", "vision", "w").allowed);
}

TEST(Escalation, RulesForJoinClusterAndNamespaceGrantsWithoutUrlRules) {
  RbacPolicy policy;
  policy.cluster_roles.push_back(cluster_role("nodes", {rule({"get"}, {"nodes"})}));
  policy.cluster_roles.push_back(
      cluster_role("mixed", {rule({"get"}, {"events"}), url_rule({"get"}, {"/metrics"})}));
  policy.cluster_role_bindings.push_back(cluster_role_binding("a", "nodes", {user("ana")}));
  policy.role_bindings.push_back(
      role_binding("vision", "b", cluster_role_ref("mixed"), {user("ana")}));
  const Authorizer authorizer(policy);
  const Caller ana = authorizer.resolve(Principal::user("ana"));
  EXPECT_EQ(authorizer.rules_for(ana, "vision"),
            (std::vector<PolicyRule>{rule({"get"}, {"nodes"}), rule({"get"}, {"events"})}));
  EXPECT_EQ(authorizer.rules_for(ana, ""), std::vector<PolicyRule>{rule({"get"}, {"nodes"})});
  EXPECT_EQ(authorizer.rules_for(ana, "research"),
            std::vector<PolicyRule>{rule({"get"}, {"nodes"})});
  EXPECT_FALSE(authorizer.scope_rules_for(ana, "vision").has_value());
}

}  // namespace
}  // namespace allot
