// validate_rbac(): RBAC objects as allot's policy may hold them: Roles and
// RoleBindings in teams' namespaces, no built-in redefined, one object per
// name, each fault located at its object and field.
#include "authz/rbac_validation.h"

#include <gtest/gtest.h>

#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

const std::set<std::string> kValidationTeams = {"research", "vision"};

TEST(RbacValidation, TeamNamespacesAndNewNamesPass) {
  RbacPolicy policy;
  add_team(policy, "research");
  policy.roles.push_back(role("vision", "reader", {rule({"get"}, {"workloads"})}));
  policy.cluster_roles.push_back(cluster_role("log-reader", {rule({"get"}, {"workloads/logs"})}));
  policy.cluster_role_bindings.push_back(cluster_role_binding("ops", "log-reader", {group("ops")}));

  EXPECT_TRUE(validate_rbac(policy, kValidationTeams).ok());
}

TEST(RbacValidation, ANamespacedObjectOutsideEveryTeamIsADanglingReference) {
  RbacPolicy bindings;
  add_team(bindings, "prod");
  RbacPolicy roles;
  roles.roles.push_back(role("", "reader", {}));

  const Status binding = validate_rbac(bindings, kValidationTeams);
  const Status role_status = validate_rbac(roles, kValidationTeams);

  EXPECT_EQ(binding.code(), ErrorCode::kNotFound);
  EXPECT_EQ(binding.details(), "RoleBinding/prod/admins.metadata.namespace");
  EXPECT_NE(binding.message().find("no team owns namespace 'prod'"), std::string::npos);
  EXPECT_EQ(role_status.code(), ErrorCode::kNotFound);
}

TEST(RbacValidation, BuiltInsCannotBeRedefined) {
  for (const std::string name : {"cluster-admin", "team-admin", "team-member", "team-viewer"}) {
    RbacPolicy policy;
    policy.cluster_roles.push_back(cluster_role(name, {}));
    const Status status = validate_rbac(policy, kValidationTeams);
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument) << name;
    EXPECT_EQ(status.details(), "ClusterRole/" + name + ".metadata.name");
  }
  RbacPolicy admins;
  admins.cluster_role_bindings.push_back(
      cluster_role_binding("system:admins", "team-viewer", {user("mallory")}));
  EXPECT_EQ(validate_rbac(admins, kValidationTeams).code(), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(is_builtin_rbac_name("ClusterRoleBinding", "system:admins"));
  EXPECT_FALSE(is_builtin_rbac_name("Role", "team-admin")) << "a Role may take the name";
}

TEST(RbacValidation, ANameRepeatedWithinAKindAndNamespaceIsRefused) {
  RbacPolicy policy;
  policy.roles.push_back(role("research", "reader", {}));
  policy.roles.push_back(role("vision", "reader", {}));
  EXPECT_TRUE(validate_rbac(policy, kValidationTeams).ok()) << "another namespace";
  policy.roles.push_back(role("vision", "reader", {}));

  const Status status = validate_rbac(policy, kValidationTeams);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "Role/vision/reader");
}

}  // namespace
}  // namespace allot
