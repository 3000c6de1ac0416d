// Kubernetes RBAC rule semantics, one table row per behaviour: each rule is
// bound to User "ana" by a ClusterRoleBinding and asked one request.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "authz/authorizer.h"
#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

struct RuleCase {
  std::string what;
  PolicyRule rule;
  AccessRequest request;
  bool allowed;
};

constexpr std::string_view kAllot = "allot";
constexpr std::string_view kRbac = "rbac.authorization.k8s.io";

const std::vector<RuleCase>& rule_cases() {
  static const std::vector<RuleCase> kCases = {
      // what | rule | {verb, group, resource, namespace, name} | allowed
      {"the verb and resource it names",
       rule({"get"}, {"workloads"}),
       {"get", kAllot, "workloads", "vision", "w"},
       true},
      {"not another verb",
       rule({"get"}, {"workloads"}),
       {"delete", kAllot, "workloads", "vision", "w"},
       false},
      {"not another resource",
       rule({"get"}, {"workloads"}),
       {"get", kAllot, "events", "vision", ""},
       false},
      {"verbs are case-sensitive",
       rule({"Get"}, {"workloads"}),
       {"get", kAllot, "workloads", "vision", "w"},
       false},
      {"the custom verb cancel",
       rule({"cancel"}, {"workloads"}),
       {"cancel", kAllot, "workloads", "vision", "w"},
       true},
      {"verb * is every verb",
       rule({"*"}, {"workloads"}),
       {"cancel", kAllot, "workloads", "vision", "w"},
       true},
      {"no verbs, nothing",
       rule({}, {"workloads"}),
       {"get", kAllot, "workloads", "vision", "w"},
       false},
      {"resource * is every resource",
       rule({"get"}, {"*"}),
       {"get", kAllot, "nodes", "", "n1"},
       true},
      {"resource * holds subresources",
       rule({"get"}, {"*"}),
       {"get", kAllot, "workloads/logs", "vision", "w"},
       true},
      {"a resource does not hold its subresources",
       rule({"get"}, {"workloads"}),
       {"get", kAllot, "workloads/logs", "vision", "w"},
       false},
      {"a subresource as resource/subresource",
       rule({"get"}, {"workloads/logs"}),
       {"get", kAllot, "workloads/logs", "vision", "w"},
       true},
      {"a subresource does not hold its resource",
       rule({"get"}, {"workloads/logs"}),
       {"get", kAllot, "workloads", "vision", "w"},
       false},
      {"not another subresource",
       rule({"create"}, {"workloads/logs"}),
       {"create", kAllot, "workloads/exec", "vision", "w"},
       false},
      {"*/logs holds logs of every resource",
       rule({"get"}, {"*/logs"}),
       {"get", kAllot, "workloads/logs", "vision", "w"},
       true},
      {"*/logs not other subresources",
       rule({"get"}, {"*/logs"}),
       {"get", kAllot, "workloads/exec", "vision", "w"},
       false},
      {"*/logs not the resource",
       rule({"get"}, {"*/logs"}),
       {"get", kAllot, "workloads", "vision", "w"},
       false},
      {"scale is its own subresource",
       rule({"update"}, {"workloads/scale"}),
       {"update", kAllot, "workloads/scale", "vision", "w"},
       true},
      {"apiGroup * is every group",
       rule({"get"}, {"roles"}, {"*"}),
       {"get", kRbac, "roles", "vision", "r"},
       true},
      {"not another apiGroup",
       rule({"get"}, {"roles"}, {"allot"}),
       {"get", kRbac, "roles", "vision", "r"},
       false},
      {"the core group is not allot's",
       rule({"get"}, {"workloads"}, {""}),
       {"get", kAllot, "workloads", "vision", "w"},
       false},
      {"no apiGroups, nothing",
       rule({"get"}, {"workloads"}, {}),
       {"get", kAllot, "workloads", "vision", "w"},
       false},
      {"resourceNames: the name it lists",
       rule({"get", "delete"}, {"workloads"}, {"allot"}, {"w"}),
       {"delete", kAllot, "workloads", "vision", "w"},
       true},
      {"resourceNames: not another name",
       rule({"get"}, {"workloads"}, {"allot"}, {"w"}),
       {"get", kAllot, "workloads", "vision", "x"},
       false},
      {"resourceNames: never list",
       rule({"list"}, {"workloads"}, {"allot"}, {"w"}),
       {"list", kAllot, "workloads", "vision", ""},
       false},
      {"resourceNames: never list, even named",
       rule({"list"}, {"workloads"}, {"allot"}, {"w"}),
       {"list", kAllot, "workloads", "vision", "w"},
       false},
      {"resourceNames: never watch",
       rule({"watch"}, {"workloads"}, {"allot"}, {"w"}),
       {"watch", kAllot, "workloads", "vision", "w"},
       false},
      {"resourceNames: never create",
       rule({"create"}, {"workloads"}, {"allot"}, {"w"}),
       {"create", kAllot, "workloads", "vision", "w"},
       false},
      {"resourceNames: never deletecollection",
       rule({"deletecollection"}, {"workloads"}, {"allot"}, {"w"}),
       {"deletecollection", kAllot, "workloads", "vision", "w"},
       false},
      {"resourceNames: create of a named object's subresource",
       rule({"create"}, {"workloads/exec"}, {"allot"}, {"w"}),
       {"create", kAllot, "workloads/exec", "vision", "w"},
       true},
      {"resourceNames: the collection is not a name",
       rule({"get"}, {"workloads"}, {"allot"}, {"w"}),
       {"get", kAllot, "workloads", "vision", ""},
       false},
  };
  return kCases;
}

TEST(RuleSemantics, EachRowAsKubernetesDecidesIt) {
  for (const RuleCase& row : rule_cases()) {
    RbacPolicy policy;
    policy.cluster_roles.push_back(cluster_role("r", {row.rule}));
    policy.cluster_role_bindings.push_back(cluster_role_binding("b", "r", {user("ana")}));
    const Authorizer authorizer(policy);
    const Caller ana = authorizer.resolve(Principal::user("ana"));
    const Decision decision = authorizer.authorize(ana, row.request);
    EXPECT_EQ(decision.allowed, row.allowed) << row.what << ": " << decision.why;
    EXPECT_EQ(authorizer.allows(ana, row.request), row.allowed) << row.what;
  }
}

struct PathCase {
  std::string what;
  std::vector<std::string> urls;
  std::string verb;
  std::string path;
  bool allowed;
};

TEST(RuleSemantics, NonResourceUrlsMatchExactlyOrByPrefix) {
  const std::vector<PathCase> cases = {
      {"the path it lists", {"/metrics"}, "get", "/metrics", true},
      {"not a longer path", {"/metrics"}, "get", "/metrics/x", false},
      {"a prefix pattern", {"/metrics/*"}, "get", "/metrics/x/y", true},
      {"a prefix pattern is not its parent", {"/metrics/*"}, "get", "/metricsx", false},
      {"* is every path", {"*"}, "get", "/anything", true},
      {"not another verb", {"/metrics"}, "post", "/metrics", false},
  };
  for (const PathCase& row : cases) {
    RbacPolicy policy;
    policy.cluster_roles.push_back(cluster_role("r", {url_rule({"get"}, row.urls)}));
    policy.cluster_role_bindings.push_back(cluster_role_binding("b", "r", {user("ana")}));
    const Authorizer authorizer(policy);
    const Decision decision =
        authorizer.authorize_path(authorizer.resolve(Principal::user("ana")), row.verb, row.path);
    EXPECT_EQ(decision.allowed, row.allowed) << row.what << ": " << decision.why;
  }
}

TEST(RuleSemantics, UrlRulesOfARoleBindingNeverApply) {
  RbacPolicy policy;
  policy.cluster_roles.push_back(cluster_role("metrics", {url_rule({"get"}, {"/metrics"})}));
  policy.role_bindings.push_back(
      role_binding("vision", "b", cluster_role_ref("metrics"), {user("ana")}));
  const Authorizer authorizer(policy);
  const Decision decision =
      authorizer.authorize_path(authorizer.resolve(Principal::user("ana")), "get", "/metrics");
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.why, "User \"ana\" cannot get /metrics: no ClusterRoleBinding grants it");
}

}  // namespace
}  // namespace allot
