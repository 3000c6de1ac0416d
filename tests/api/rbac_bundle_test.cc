// The RBAC kinds in the apply pipeline's parser (parse_manifests(): one file
// may hold them with the other kinds), their encoders (rbac_json.h, which
// serve the built-in roles) and their names in resource_kinds.h.
#include <string>
#include <tuple>
#include <variant>

#include <gtest/gtest.h>

#include "api/cluster_view_json.h"
#include "api/doc_node.h"
#include "api/manifest_parser.h"
#include "api/rbac_documents.h"
#include "api/rbac_json.h"
#include "api/resource_kinds.h"

namespace allot {
namespace {

constexpr const char* kMixed = R"(apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: members, namespace: research}
subjects: [{kind: Group, name: research-engineers}, {kind: ServiceAccount, name: ci}]
roleRef: {kind: ClusterRole, name: team-member}
---
apiVersion: allot/v1
kind: ClusterRole
metadata: {name: log-reader, labels: {team: platform}}
rules: [{verbs: [get], apiGroups: [allot], resources: [workloads/logs]},
        {verbs: [get], nonResourceURLs: [/metrics]}]
)";

TEST(RbacBundle, OneFileHoldsTheRbacKindsWithTheOthers) {
  const Result<ParsedManifests> parsed = parse_manifests_with_documents(kMixed);

  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  EXPECT_EQ(parsed->bundle.policy.cohorts.size(), 1u);
  ASSERT_EQ(parsed->bundle.rbac.role_bindings.size(), 1u);
  EXPECT_EQ(parsed->bundle.rbac.role_bindings[0].subjects[1].namespace_name, "research")
      << "a ServiceAccount of a RoleBinding defaults to its namespace";
  ASSERT_EQ(parsed->bundle.rbac.cluster_roles.size(), 1u);
  ASSERT_EQ(parsed->documents.size(), 3u);
  EXPECT_EQ(parsed->documents[1].kind, "RoleBinding");
  EXPECT_EQ(parsed->documents[1].namespace_name, "research");
  EXPECT_EQ(parsed->documents[1].json["apiVersion"], "rbac.authorization.k8s.io/v1")
      << "stored as written";
}

TEST(RbacBundle, RbacErrorsAreLocatedLikeTheOthers) {
  const Result<ManifestBundle> bad = parse_manifests(
      std::string(kMixed) + "---\napiVersion: allot/v1\nkind: Role\nmetadata: {name: r}\n",
      "team.yaml");

  ASSERT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.status().details(), "team.yaml: document 4 (Role/r): metadata.namespace");
  const Result<ManifestBundle> unknown =
      parse_manifests("apiVersion: allot/v1\nkind: Rolebinding\nmetadata: {name: r}\n");
  EXPECT_NE(unknown.status().message().find("RoleBinding, ClusterRoleBinding"), std::string::npos)
      << unknown.status().to_string();
}

TEST(RbacBundle, EncodedObjectsDecodeBackToThemselves) {
  const Result<ManifestBundle> parsed = parse_manifests(kMixed);
  ASSERT_TRUE(parsed.ok());
  const RbacPolicy& rbac = parsed->rbac;

  const nlohmann::json binding_json = role_binding_json(rbac.role_bindings[0]);
  const nlohmann::json role_json = cluster_role_json(rbac.cluster_roles[0]);

  const Result<RbacObject> binding = decode_rbac_document(DocNode(binding_json));
  const Result<RbacObject> role = decode_rbac_document(DocNode(role_json));

  ASSERT_TRUE(binding.ok()) << binding.status().to_string();
  EXPECT_EQ(std::get<RoleBinding>(*binding), rbac.role_bindings[0]);
  ASSERT_TRUE(role.ok()) << role.status().to_string();
  EXPECT_EQ(std::get<ClusterRole>(*role), rbac.cluster_roles[0]);
}

TEST(RbacBundle, ApplyChangesOfNamespacedObjectsNameTheirNamespace) {
  ApplyResult result{false,
                     {{"RoleBinding", "research/members", "created", {}},
                      {"ClusterRole", "log-reader", "unchanged", {}}}};

  const nlohmann::json result_json = apply_result_json(result);

  EXPECT_EQ(result_json["changes"][0]["namespace"], "research");
  EXPECT_EQ(result_json["changes"][0]["name"], "members");
  EXPECT_EQ(result_json["changes"][1]["namespace"], "");
}

TEST(RbacBundle, TheRbacKindsGoByTheirKubernetesNames) {
  for (const auto& [text, plural, namespaced] :
       {std::tuple{"roles", "roles", true}, std::tuple{"Role", "roles", true},
        std::tuple{"clusterrole", "clusterroles", false},
        std::tuple{"RoleBinding", "rolebindings", true},
        std::tuple{"clusterrolebindings", "clusterrolebindings", false}}) {
    const Result<KindInfo> kind = parse_resource_kind(text);
    ASSERT_TRUE(kind.ok()) << text;
    EXPECT_EQ(kind->plural, plural);
    EXPECT_EQ(kind->namespaced, namespaced) << text;
    EXPECT_TRUE(is_rbac(kind->kind));
  }
  EXPECT_FALSE(is_rbac(ResourceKind::kTeam));
}

}  // namespace
}  // namespace allot
