// The RBAC kinds in Kubernetes' shape (issue 11): what decodes, into which
// values, and how every bad input is refused with its document, field and
// reason.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/rbac_manifests.h"

namespace allot {
namespace {

RbacPolicy parse_rbac_ok(std::string_view text) {
  Result<RbacPolicy> policy = parse_rbac_manifests(text, "rbac.yaml");
  if (!policy.ok()) {
    ADD_FAILURE() << policy.status().to_string();
    return {};
  }
  return std::move(policy).value();
}

TEST(RbacDocuments, AKubernetesRoleAndBindingFileAppliesAsItIs) {
  const RbacPolicy policy = parse_rbac_ok(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: vision
  name: log-reader
  annotations: {rbac.authorization.kubernetes.io/autoupdate: "true"}
rules:
- apiGroups: ["allot"]
  resources: ["workloads", "workloads/logs"]
  verbs: ["get", "list"]
- apiGroups: ["allot"]
  resources: ["workloads/exec"]
  resourceNames: ["train-1"]
  verbs: ["create"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read-logs, namespace: vision}
subjects:
- kind: User
  name: ana@example.com
  apiGroup: rbac.authorization.k8s.io
- kind: Group
  name: vision-devs
- kind: ServiceAccount
  name: ci
roleRef:
  kind: Role
  name: log-reader
  apiGroup: rbac.authorization.k8s.io
)");
  ASSERT_EQ(policy.roles.size(), 1u);
  const Role& role = policy.roles[0];
  EXPECT_EQ(role.meta.name, "log-reader");
  EXPECT_EQ(role.meta.namespace_name, "vision");
  EXPECT_EQ(role.rules, (std::vector<PolicyRule>{
                            {{"get", "list"}, {"allot"}, {"workloads", "workloads/logs"}, {}, {}},
                            {{"create"}, {"allot"}, {"workloads/exec"}, {"train-1"}, {}}}));
  ASSERT_EQ(policy.role_bindings.size(), 1u);
  const RoleBinding& binding = policy.role_bindings[0];
  EXPECT_EQ(binding.subjects,
            (std::vector<Subject>{{SubjectKind::kUser, "ana@example.com", ""},
                                  {SubjectKind::kGroup, "vision-devs", ""},
                                  {SubjectKind::kServiceAccount, "ci", "vision"}}));
  EXPECT_EQ(binding.role_ref, (RoleRef{RoleRefKind::kRole, "log-reader"}));
}

TEST(RbacDocuments, ClusterKindsInAllotsOwnApiVersion) {
  const RbacPolicy policy = parse_rbac_ok(R"(
apiVersion: allot/v1
kind: ClusterRole
metadata: {name: "system:monitoring", labels: {tier: ops}}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {aggregate-to-monitoring: "true"}
rules:
- verbs: [get]
  nonResourceURLs: [/metrics, "/debug/*"]
---
apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: ops}
subjects: [{kind: ServiceAccount, name: prom, namespace: monitoring}]
roleRef: {kind: ClusterRole, name: "system:monitoring"}
---
apiVersion: allot/v1
kind: RoleBinding
metadata: {name: nobody-yet, namespace: vision}
roleRef: {kind: ClusterRole, name: team-viewer}
)");
  ASSERT_EQ(policy.cluster_roles.size(), 1u);
  const ClusterRole& role = policy.cluster_roles[0];
  EXPECT_EQ(role.meta.labels.at("tier"), "ops");
  ASSERT_TRUE(role.aggregation.has_value());
  EXPECT_EQ(
      role.aggregation->cluster_role_selectors,
      (std::vector<std::map<std::string, std::string>>{{{"aggregate-to-monitoring", "true"}}}));
  EXPECT_EQ(role.rules, (std::vector<PolicyRule>{{{"get"}, {}, {}, {}, {"/metrics", "/debug/*"}}}));
  ASSERT_EQ(policy.cluster_role_bindings.size(), 1u);
  EXPECT_EQ(policy.cluster_role_bindings[0].subjects[0],
            (Subject{SubjectKind::kServiceAccount, "prom", "monitoring"}));
  ASSERT_EQ(policy.role_bindings.size(), 1u);
  EXPECT_TRUE(policy.role_bindings[0].subjects.empty());
}

TEST(RbacDocuments, JsonBodiesAndEmptyDocuments) {
  const RbacPolicy policy = parse_rbac_ok(
      R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
          "metadata": {"name": "reader"},
          "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["get"]}]})"
      "\n---\n");
  ASSERT_EQ(policy.cluster_roles.size(), 1u);
  EXPECT_EQ(policy.cluster_roles[0].rules[0].api_groups, std::vector<std::string>{"*"});
}

struct BadCase {
  std::string what;
  std::string text;
  std::string details;
  std::string message_part;
};

std::string role_doc(const std::string& rules) {
  return "apiVersion: allot/v1\nkind: Role\nmetadata: {name: r, namespace: vision}\nrules: " +
         rules + "\n";
}

std::string binding_doc(const std::string& kind, const std::string& body) {
  const std::string ns = kind == "RoleBinding" ? ", namespace: vision" : "";
  return "apiVersion: allot/v1\nkind: " + kind + "\nmetadata: {name: b" + ns + "}\n" + body + "\n";
}

const std::string kRoleRef = "roleRef: {kind: ClusterRole, name: team-viewer}";

TEST(RbacDocuments, EveryBadInputIsLocatedAndExplained) {
  const std::string d1r = "rbac.yaml: document 1 (Role/r): ";
  const std::string d1b = "rbac.yaml: document 1 (RoleBinding/b): ";
  const std::string d1c = "rbac.yaml: document 1 (ClusterRoleBinding/b): ";
  const std::vector<BadCase> cases = {
      {"a spec", "apiVersion: allot/v1\nkind: Role\nmetadata: {name: r, namespace: v}\nspec: {}\n",
       d1r + "spec", "sit at the top level"},
      {"a status", role_doc("[]") + "status: {}\n", d1r + "status", "written by allot"},
      {"another apiVersion", "apiVersion: v1\nkind: Role\nmetadata: {name: r, namespace: v}\n",
       d1r + "apiVersion", "expected allot/v1 or rbac.authorization.k8s.io/v1"},
      {"a kind that is not RBAC", "apiVersion: allot/v1\nkind: Team\nmetadata: {name: t}\n",
       "rbac.yaml: document 1 (Team/t): kind", "expected one of Role, ClusterRole"},
      {"a Role without namespace", "apiVersion: allot/v1\nkind: Role\nmetadata: {name: r}\n",
       "rbac.yaml: document 1 (Role/r): metadata.namespace", "missing required field"},
      {"a ClusterRole with a namespace",
       "apiVersion: allot/v1\nkind: ClusterRole\nmetadata: {name: c, namespace: v}\n",
       "rbac.yaml: document 1 (ClusterRole/c): metadata.namespace", "cluster-scoped"},
      {"a name with a slash", "apiVersion: allot/v1\nkind: ClusterRole\nmetadata: {name: a/b}\n",
       "rbac.yaml: document 1 (ClusterRole/a/b): metadata.name", "not a valid RBAC name"},
      {"an unknown top-level field", role_doc("[]") + "roleRef: {kind: Role, name: x}\n",
       d1r + "roleRef", "unknown field 'roleRef'"},
      {"a rule without verbs", role_doc("[{apiGroups: [allot], resources: [workloads]}]"),
       d1r + "rules[0]", "a rule needs verbs"},
      {"a rule without resources", role_doc("[{apiGroups: [allot], verbs: [get]}]"),
       d1r + "rules[0]", "a rule needs resources"},
      {"a rule without apiGroups", role_doc("[{resources: [workloads], verbs: [get]}]"),
       d1r + "rules[0]", "a rule needs apiGroups"},
      {"an unknown rule field", role_doc("[{verb: [get]}]"), d1r + "rules[0].verb",
       "unknown field 'verb'"},
      {"an empty verb", role_doc("[{apiGroups: [allot], resources: [w], verbs: ['']}]"),
       d1r + "rules[0].verbs[0]", "cannot be empty"},
      {"a resource with two slashes",
       role_doc("[{apiGroups: [allot], resources: [a/b/c], verbs: [get]}]"),
       d1r + "rules[0].resources[0]", "is not a resource"},
      {"verbs as a scalar", role_doc("[{apiGroups: [allot], resources: [w], verbs: get}]"),
       d1r + "rules[0].verbs", "list"},
      {"URLs in a Role", role_doc("[{verbs: [get], nonResourceURLs: [/metrics]}]"),
       d1r + "rules[0]", "for ClusterRoles only"},
      {"URLs and resources in one rule",
       "apiVersion: allot/v1\nkind: ClusterRole\nmetadata: {name: c}\nrules: [{verbs: [get], "
       "apiGroups: [allot], resources: [w], nonResourceURLs: [/m]}]\n",
       "rbac.yaml: document 1 (ClusterRole/c): rules[0]", "not both"},
      {"a URL without a slash",
       "apiVersion: allot/v1\nkind: ClusterRole\nmetadata: {name: c}\nrules: [{verbs: [get], "
       "nonResourceURLs: [metrics]}]\n",
       "rbac.yaml: document 1 (ClusterRole/c): rules[0].nonResourceURLs[0]", "start it with '/'"},
      {"matchExpressions",
       "apiVersion: allot/v1\nkind: ClusterRole\nmetadata: {name: c}\naggregationRule: "
       "{clusterRoleSelectors: [{matchExpressions: []}]}\n",
       "rbac.yaml: document 1 (ClusterRole/c): "
       "aggregationRule.clusterRoleSelectors[0].matchExpressions",
       "not supported yet"},
      {"an empty selector",
       "apiVersion: allot/v1\nkind: ClusterRole\nmetadata: {name: c}\naggregationRule: "
       "{clusterRoleSelectors: [{}]}\n",
       "rbac.yaml: document 1 (ClusterRole/c): aggregationRule.clusterRoleSelectors[0]",
       "needs matchLabels"},
      {"a binding without roleRef", binding_doc("RoleBinding", "subjects: []"), d1b + "roleRef",
       "missing required field 'roleRef'"},
      {"an unknown subject kind",
       binding_doc("RoleBinding", "subjects: [{kind: Robot, name: r2}]\n" + kRoleRef),
       d1b + "subjects[0].kind", "unknown value 'Robot'"},
      {"a subject without name",
       binding_doc("RoleBinding", "subjects: [{kind: User}]\n" + kRoleRef),
       d1b + "subjects[0].name", "missing required field"},
      {"a User with a namespace",
       binding_doc("RoleBinding", "subjects: [{kind: User, name: ana, namespace: v}]\n" + kRoleRef),
       d1b + "subjects[0].namespace", "take no namespace"},
      {"a Group of another apiGroup",
       binding_doc("RoleBinding", "subjects: [{kind: Group, name: g, apiGroup: x}]\n" + kRoleRef),
       d1b + "subjects[0].apiGroup", "must be rbac.authorization.k8s.io"},
      {"a ServiceAccount with an apiGroup",
       binding_doc("RoleBinding",
                   "subjects: [{kind: ServiceAccount, name: ci, apiGroup: "
                   "rbac.authorization.k8s.io}]\n" +
                       kRoleRef),
       d1b + "subjects[0].apiGroup", "must be \"\""},
      {"a ServiceAccount of a ClusterRoleBinding without namespace",
       binding_doc("ClusterRoleBinding",
                   "subjects: [{kind: ServiceAccount, name: ci}]\n" + kRoleRef),
       d1c + "subjects[0]", "needs a namespace"},
      {"a ClusterRoleBinding to a Role",
       binding_doc("ClusterRoleBinding", "roleRef: {kind: Role, name: r}"), d1c + "roleRef.kind",
       "never a Role"},
      {"a roleRef of another kind", binding_doc("RoleBinding", "roleRef: {kind: Team, name: r}"),
       d1b + "roleRef.kind", "expected one of Role, ClusterRole"},
      {"a roleRef of another apiGroup",
       binding_doc("RoleBinding", "roleRef: {kind: Role, name: r, apiGroup: allot}"),
       d1b + "roleRef.apiGroup", "must be rbac.authorization.k8s.io"},
      {"rules in a binding", binding_doc("RoleBinding", kRoleRef + "\nrules: []"), d1b + "rules",
       "unknown field 'rules'"},
      {"a document that is not a map", "- a\n- b\n", "rbac.yaml: document 1", "must be a map"},
  };
  for (const BadCase& row : cases) {
    const Result<RbacPolicy> policy = parse_rbac_manifests(row.text, "rbac.yaml");
    ASSERT_FALSE(policy.ok()) << row.what;
    const Status& status = policy.status();
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument) << row.what;
    EXPECT_EQ(status.details(), row.details) << row.what << ": " << status.to_string();
    EXPECT_NE(status.message().find(row.message_part), std::string::npos)
        << row.what << ": " << status.message();
  }
}

TEST(RbacDocuments, OneBadDocumentFailsTheBatchNamingIt) {
  const Result<RbacPolicy> policy = parse_rbac_manifests(
      binding_doc("RoleBinding", kRoleRef) + "---\n" +
      binding_doc("RoleBinding", "subjects: [{kind: Robot, name: r}]\n" + kRoleRef));
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().details(), "document 2 (RoleBinding/b): subjects[0].kind");
  EXPECT_NE(policy.status().message().find("(line 9, column 19)"), std::string::npos)
      << policy.status().message();
}

TEST(RbacDocuments, YamlErrorsAliasesAndBadUtf8SayWhere) {
  EXPECT_EQ(parse_rbac_manifests("kind: [", "f.yaml").status().details().rfind("f.yaml: line", 0),
            0u);
  const Result<RbacPolicy> alias = parse_rbac_manifests(
      role_doc("[&a {verbs: [get], apiGroups: [allot], resources: [w]}, *a]"), "f.yaml");
  ASSERT_FALSE(alias.ok());
  EXPECT_NE(alias.status().message().find("aliases"), std::string::npos);
  EXPECT_FALSE(parse_rbac_manifests("kind: \xff\n").ok());
}

}  // namespace
}  // namespace allot
