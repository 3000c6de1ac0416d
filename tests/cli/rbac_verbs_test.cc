// The RBAC kinds in the CLI against FakeAllotd: the paths `get`, `describe`
// and `delete` ask for roles, rolebindings (namespaced: -n NS, NS/NAME, or
// every namespace) and the cluster kinds, the tables they print, and what
// `apply` prints for RBAC changes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "fake_allotd.h"

namespace allot::cli::testing {
namespace {

using nlohmann::json;

class RbacVerbs : public ::testing::Test {
 protected:
  CliOutcome allot(std::vector<std::string> args) {
    args.push_back("--server");
    args.push_back(server_.url());
    return run_allot(args);
  }

  FakeAllotd server_;
};

const json kMembers = json::parse(R"({
  "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
  "metadata": {"name": "members", "namespace": "research"},
  "subjects": [{"kind": "Group", "name": "research-engineers"},
               {"kind": "ServiceAccount", "name": "ci", "namespace": "research"}],
  "roleRef": {"kind": "ClusterRole", "name": "team-member"}})");

TEST_F(RbacVerbs, GetRoleBindingsOfOneNamespaceOrOfEveryOne) {
  server_.reply("GET", "/api/v1/namespaces/research/rolebindings", 200, {{"items", {kMembers}}});
  server_.reply("GET", "/api/v1/rolebindings", 200, {{"items", {kMembers}}});

  const CliOutcome one = allot({"get", "rolebindings", "-n", "research"});
  const CliOutcome all = allot({"get", "rolebindings", "-A"});

  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out,
            "NAME     NAMESPACE  ROLE                     SUBJECTS\n"
            "members  research   ClusterRole/team-member  Group/research-engineers, "
            "ServiceAccount/research/ci\n");
  EXPECT_EQ(all.out, one.out);
  EXPECT_EQ(server_.requests_to("GET", "/api/v1/rolebindings").size(), 1u);
}

TEST_F(RbacVerbs, OneRoleIsNamedWithItsNamespaceEitherWay) {
  const json role = json::parse(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
      "metadata": {"name": "canceller", "namespace": "research"},
      "rules": [{"apiGroups": ["allot"], "resources": ["workloads"], "verbs": ["cancel"]}]})");
  server_.reply("GET", "/api/v1/namespaces/research/roles/canceller", 200, role);

  EXPECT_EQ(json::parse(allot({"get", "role", "canceller", "-n", "research", "-o", "json"}).out),
            role);
  EXPECT_EQ(json::parse(allot({"get", "roles", "research/canceller", "-o", "json"}).out), role);
  const CliOutcome table = allot({"get", "role", "research/canceller", "-o", "wide"});
  EXPECT_EQ(table.out,
            "NAME       NAMESPACE  RULES  RESOURCES\n"
            "canceller  research   1      workloads\n");
  const CliOutcome unnamed = allot({"get", "role", "canceller"});
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_EQ(unnamed.err,
            "error: role 'canceller' needs its namespace: give -n NAMESPACE or NS/NAME\n");
  EXPECT_EQ(server_.requests().size(), 3u) << "nothing asked without a namespace";
}

TEST_F(RbacVerbs, ClusterRolesAndTheirBindingsAreClusterScoped) {
  server_.reply("GET", "/api/v1/clusterroles", 200, json::parse(R"({"items": [
      {"kind": "ClusterRole", "metadata": {"name": "team-viewer",
       "labels": {"allot.dev/builtin": "true"}},
       "rules": [{"verbs": ["get"], "apiGroups": ["allot"], "resources": ["workloads", "events"]}]},
      {"kind": "ClusterRole", "metadata": {"name": "log-reader"}, "rules": []}]})"));
  server_.reply("GET", "/api/v1/clusterrolebindings/system:admins", 200, json::parse(R"(
      {"kind": "ClusterRoleBinding", "metadata": {"name": "system:admins"},
       "subjects": [{"kind": "Group", "name": "system:admins"}],
       "roleRef": {"kind": "ClusterRole", "name": "cluster-admin"}})"));

  EXPECT_EQ(allot({"get", "clusterroles"}).out,
            "NAME         RULES  BUILTIN\n"
            "team-viewer  1      yes\n"
            "log-reader   0      no\n");
  EXPECT_EQ(allot({"get", "clusterrolebinding", "system:admins"}).out,
            "NAME           ROLE                       SUBJECTS\n"
            "system:admins  ClusterRole/cluster-admin  Group/system:admins\n");
  EXPECT_EQ(server_.requests().back().target, "/api/v1/clusterrolebindings/system%3Aadmins");
}

TEST_F(RbacVerbs, DeleteAndDescribeANamespacedBinding) {
  server_.reply("DELETE", "/api/v1/namespaces/research/rolebindings/members", 200,
                {{"deleted", "RoleBinding/research/members"}});
  server_.reply("GET", "/api/v1/namespaces/research/rolebindings/members", 200, kMembers);

  const CliOutcome deleted = allot({"delete", "rolebinding", "members", "-n", "research"});
  const CliOutcome described = allot({"describe", "rolebinding", "research/members"});

  EXPECT_EQ(deleted.exit_code, 0) << deleted.err;
  EXPECT_EQ(deleted.out, "rolebinding/members deleted\n");
  EXPECT_EQ(described.exit_code, 0) << described.err;
  EXPECT_NE(described.out.find("Namespace:  research"), std::string::npos) << described.out;
  EXPECT_NE(described.out.find("RoleRef:\n"), std::string::npos) << described.out;
  EXPECT_NE(described.out.find("name: research-engineers"), std::string::npos) << described.out;
}

TEST_F(RbacVerbs, ApplyNamesTheRbacGroupAndTheNamespace) {
  server_.reply("POST", "/api/v1/apply", 200, json::parse(R"({"dryRun": false, "changes": [
      {"kind": "RoleBinding", "name": "members", "namespace": "research", "action": "created",
       "diff": ""},
      {"kind": "ClusterRole", "name": "log-reader", "namespace": "", "action": "unchanged",
       "diff": ""}]})"));

  const CliOutcome outcome =
      run_allot({"apply", "-f", "-", "--server", server_.url()}, "kind: RoleBinding\n");

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "rolebinding.rbac.authorization.k8s.io/members -n research created\n"
            "clusterrole.rbac.authorization.k8s.io/log-reader unchanged\n");
}

}  // namespace
}  // namespace allot::cli::testing
