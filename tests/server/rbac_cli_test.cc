// Issue 11, item 4, through the real `allot` binary against a real allotd:
// `allot apply` of RBAC manifests (and --dry-run), `allot get roles |
// clusterroles | rolebindings | clusterrolebindings [-n NS | -A] [-o yaml]`,
// `allot describe` and `allot delete rolebinding NAME -n NS`.
#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

struct CliRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

constexpr const char* kTeamRbac = R"(apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: canceller, namespace: research}
rules: [{apiGroups: [allot], resources: [workloads], verbs: [get, cancel]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: members, namespace: research}
subjects: [{kind: Group, apiGroup: rbac.authorization.k8s.io, name: research-engineers}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: team-member}
---
apiVersion: allot/v1
kind: RoleBinding
metadata: {name: members, namespace: prod}
subjects: [{kind: User, name: pete}, {kind: ServiceAccount, name: ci}]
roleRef: {kind: Role, name: canceller}
)";

class RbacCliTest : public AllotdTest {
 protected:
  // Runs `allot ARGS` as the first administrator.
  CliRun allot(const std::string& args) {
    const std::string command =
        "ALLOT_CREDENTIALS=" + shell_quote((allotd_.temp_dir() / "none.json").string()) +
        " ALLOT_TOKEN=" + shell_quote(allotd_.admin_token()) +
        " ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) + " " + ALLOT_CLI + " " +
        args + " 2>&1";
    CliRun run;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    size_t got = 0;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
      run.output.append(buffer.data(), got);
    }
    const int status = ::pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }

  std::string file(const std::string& name, const std::string& text) {
    const std::string path = temp_file(name);
    std::ofstream(path) << text;
    return path;
  }
};

TEST_F(RbacCliTest, ApplyGetDescribeAndDeleteRbacObjects) {
  apply(kTestPolicy);
  const std::string rbac = file("rbac.yaml", kTeamRbac);

  const CliRun dry = allot("apply -f " + rbac + " --dry-run");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  EXPECT_NE(dry.output.find("rolebinding.rbac.authorization.k8s.io/members -n prod created (dry "
                            "run)"),
            std::string::npos)
      << dry.output;
  EXPECT_NE(allot("get rolebindings -A").output.find("No rolebindings found"), std::string::npos);

  const CliRun applied = allot("apply -f " + rbac);
  ASSERT_EQ(applied.exit_code, 0) << applied.output;
  EXPECT_NE(applied.output.find("role.rbac.authorization.k8s.io/canceller -n research created"),
            std::string::npos)
      << applied.output;

  const CliRun all = allot("get rolebindings");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  EXPECT_NE(all.output.find("NAME     NAMESPACE  ROLE                     SUBJECTS"),
            std::string::npos)
      << all.output;
  EXPECT_NE(all.output.find("ClusterRole/team-member  Group/research-engineers"), std::string::npos)
      << all.output;
  EXPECT_NE(all.output.find("Role/canceller           User/pete, ServiceAccount/prod/ci"),
            std::string::npos)
      << all.output;
  const CliRun research = allot("get rolebindings -n research -o json");
  ASSERT_EQ(research.exit_code, 0) << research.output;
  const nlohmann::json items = nlohmann::json::parse(research.output)["items"];
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0]["metadata"]["namespace"], "research");
  const CliRun one = allot("get role research/canceller -o yaml");
  EXPECT_NE(one.output.find("name: canceller"), std::string::npos) << one.output;
  const CliRun builtins = allot("get clusterroles");
  EXPECT_NE(builtins.output.find("team-viewer"), std::string::npos) << builtins.output;
  EXPECT_NE(builtins.output.find("yes"), std::string::npos) << builtins.output;
  EXPECT_NE(allot("get clusterrolebindings")
                .output.find("ClusterRole/cluster-admin  "
                             "Group/system:admins"),
            std::string::npos);
  const CliRun described = allot("describe rolebinding members -n prod");
  EXPECT_NE(described.output.find("Subjects:"), std::string::npos) << described.output;
  EXPECT_NE(described.output.find("name: pete"), std::string::npos) << described.output;

  const CliRun deleted = allot("delete rolebinding members -n prod");
  ASSERT_EQ(deleted.exit_code, 0) << deleted.output;
  EXPECT_EQ(deleted.output, "rolebinding/members deleted\n");
  EXPECT_EQ(allot("get rolebinding members -n prod").exit_code, 2);
  const CliRun builtin = allot("delete clusterrole team-admin");
  EXPECT_EQ(builtin.exit_code, 2);
  EXPECT_NE(builtin.output.find("built into allot"), std::string::npos) << builtin.output;
  const CliRun unnamed = allot("delete role canceller");
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.output.find("needs its namespace"), std::string::npos) << unnamed.output;
}

TEST_F(RbacCliTest, ABadRbacFileIsALocatedErrorAndAppliesNothing) {
  apply(kTestPolicy);
  const std::string bad = file("bad.yaml", std::string(kTeamRbac) +
                                               "---\napiVersion: allot/v1\nkind: ClusterRole\n"
                                               "metadata: {name: x}\nspec: {}\n");

  const CliRun applied = allot("apply -f " + bad);

  EXPECT_EQ(applied.exit_code, 2);
  EXPECT_NE(applied.output.find("document 4 (ClusterRole/x): spec"), std::string::npos)
      << applied.output;
  EXPECT_NE(allot("get roles -A").output.find("No roles found"), std::string::npos);
}

}  // namespace
}  // namespace allot::server_test
