// render_kubernetes(): the objects of the example organisation, their names
// for HyperPod, the ResourceQuota's ceiling, RBAC view/act separation, and
// determinism.
#include "api/kubernetes/kubernetes_render.h"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "kubernetes/kubernetes_test_files.h"

namespace allot {
namespace {

using nlohmann::json;
using testing::parse_files;

const KubernetesObject* find(const KubernetesRendering& rendering, std::string_view kind,
                             std::string_view ns, std::string_view name) {
  for (const KubernetesObject& object : rendering.objects) {
    if (object.kind == kind && object.namespace_name == ns && object.name == name) return &object;
  }
  return nullptr;
}

class OrgRenderTest : public ::testing::Test {
 protected:
  ManifestBundle bundle_ = parse_files({"examples/org/policy.yaml", "examples/org/rbac.yaml"});
};

TEST_F(OrgRenderTest, ClusterQueueCarriesTheTeamsQuotaAndPreemption) {
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  const KubernetesObject* queue = find(rendering, "ClusterQueue", "", "llm-training");
  ASSERT_NE(queue, nullptr);
  EXPECT_EQ(queue->api_version, "kueue.x-k8s.io/v1beta2");
  const json& spec = queue->manifest["spec"];
  EXPECT_EQ(spec["cohortName"], "org");
  EXPECT_EQ(spec["fairSharing"]["weight"], "3");
  EXPECT_EQ(spec["preemption"]["reclaimWithinCohort"], "Any");
  EXPECT_EQ(spec["preemption"]["withinClusterQueue"], "LowerPriority");
  const json gpu = spec["resourceGroups"][0]["flavors"][0]["resources"][0];
  EXPECT_EQ(gpu, json({{"name", "nvidia.com/gpu"},
                       {"nominalQuota", "10"},
                       {"borrowingLimit", "6"},
                       {"lendingLimit", "10"}}));
  const KubernetesObject* local = find(rendering, "LocalQueue", "llm-training", "llm-training");
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(local->manifest["spec"]["clusterQueue"], "llm-training");
}

TEST_F(OrgRenderTest, V1beta1NamesTheCohortField) {
  KubernetesRenderOptions options;
  options.kueue_api = KueueApiVersion::kV1beta1;
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, options);
  const KubernetesObject* queue = find(rendering, "ClusterQueue", "", "research");
  ASSERT_NE(queue, nullptr);
  EXPECT_EQ(queue->manifest["apiVersion"], "kueue.x-k8s.io/v1beta1");
  EXPECT_EQ(queue->manifest["spec"]["cohort"], "org");
  EXPECT_FALSE(queue->manifest["spec"].contains("cohortName"));
}

TEST_F(OrgRenderTest, HyperPodNamesFollowTaskGovernance) {
  KubernetesRenderOptions options;
  options.naming = KubernetesNaming::kHyperPod;
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, options);
  EXPECT_NE(find(rendering, "Namespace", "", "hyperpod-ns-research"), nullptr);
  EXPECT_NE(find(rendering, "ClusterQueue", "", "hyperpod-ns-research-clusterqueue"), nullptr);
  const KubernetesObject* local =
      find(rendering, "LocalQueue", "hyperpod-ns-research", "hyperpod-ns-research-localqueue");
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(local->manifest["spec"]["clusterQueue"], "hyperpod-ns-research-clusterqueue");
  const KubernetesObject* priority = find(rendering, "WorkloadPriorityClass", "", "batch-priority");
  ASSERT_NE(priority, nullptr);
  EXPECT_EQ(priority->manifest["value"], 100);
}

TEST_F(OrgRenderTest, ResourceQuotaIsNominalPlusWhatTheTeamMayBorrow) {
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  // llm-training: 10 own + min(borrowingLimit 6, 2 + 4 lendable) = 16.
  EXPECT_EQ(find(rendering, "ResourceQuota", "llm-training", "allot-quota")
                ->manifest["spec"]["hard"]["requests.nvidia.com/gpu"],
            "16");
  // research: 4 own + everything the others lend on h100 (10 + 2) = 16.
  EXPECT_EQ(find(rendering, "ResourceQuota", "research", "allot-quota")
                ->manifest["spec"]["hard"]["requests.nvidia.com/gpu"],
            "16");
  // vision-inference: l40s 4 + h100 2 own, + 14 lendable h100 = 20.
  EXPECT_EQ(find(rendering, "ResourceQuota", "vision-inference", "allot-quota")
                ->manifest["spec"]["hard"]["requests.nvidia.com/gpu"],
            "20");
}

TEST_F(OrgRenderTest, ViewAndActAreSeparateRolesBoundToPrefixedGroups) {
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  const KubernetesObject* view = find(rendering, "RoleBinding", "research", "allot-view");
  const KubernetesObject* act = find(rendering, "RoleBinding", "research", "allot-act");
  ASSERT_NE(view, nullptr);
  ASSERT_NE(act, nullptr);
  const auto names = [](const KubernetesObject& binding) {
    std::vector<std::string> out;
    for (const json& s : binding.manifest["subjects"]) out.push_back(s["name"]);
    return out;
  };
  // viewers and finance (work-reader, cluster-wide) read; leads, engineers and platform admins act.
  EXPECT_EQ(names(*view), (std::vector<std::string>{
                              "oidc:finance", "oidc:platform-admins", "oidc:research-engineers",
                              "oidc:research-leads", "oidc:research-viewers"}));
  EXPECT_EQ(names(*act),
            (std::vector<std::string>{"oidc:platform-admins", "oidc:research-engineers",
                                      "oidc:research-leads"}));
  const KubernetesObject* view_role = find(rendering, "Role", "research", "allot-view");
  ASSERT_NE(view_role, nullptr);
  for (const json& rule : view_role->manifest["rules"]) {
    EXPECT_EQ(rule["verbs"], json::array({"get", "list", "watch"})) << rule.dump();
  }
  // No other team's group reaches this namespace.
  for (const std::string& name : names(*view))
    EXPECT_EQ(name.find("llm-training"), std::string::npos);
}

json namespace_peer(const std::string& name) {
  return {{"namespaceSelector", {{"matchLabels", {{"kubernetes.io/metadata.name", name}}}}}};
}

TEST_F(OrgRenderTest, NetworkPolicyDeniesByDefaultAndAllowsDnsAndItsOwnNamespace) {
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  const KubernetesObject* policy =
      find(rendering, "NetworkPolicy", "vision-inference", "allot-default-deny");
  ASSERT_NE(policy, nullptr);
  const json& spec = policy->manifest["spec"];
  EXPECT_EQ(spec["podSelector"], json::object());
  EXPECT_EQ(spec["policyTypes"], json::array({"Ingress", "Egress"}));
  ASSERT_EQ(spec["egress"].size(), 2U);
  EXPECT_EQ(spec["egress"][0]["ports"][0]["port"], 53);
  EXPECT_EQ(spec["egress"][1]["to"][0], json({{"podSelector", json::object()}}));
  ASSERT_EQ(spec["ingress"].size(), 1U);
  EXPECT_EQ(spec["ingress"][0]["from"], json::array({{{"podSelector", json::object()}}}));
}

// research lists llm-training and shared-datasets in network.egressNamespaces:
// its egress reaches both; llm-training's ingress admits research's namespace.
TEST_F(OrgRenderTest, NetworkPolicyReachesTheEgressNamespacesAndTheyAdmitTheTeam) {
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  const KubernetesObject* research =
      find(rendering, "NetworkPolicy", "research", "allot-default-deny");
  ASSERT_NE(research, nullptr);
  const json& egress = research->manifest["spec"]["egress"];
  ASSERT_EQ(egress.size(), 3U);
  EXPECT_EQ(egress[2], json({{"to", json::array({namespace_peer("llm-training"),
                                                 namespace_peer("shared-datasets")})}}));
  EXPECT_EQ(research->manifest["spec"]["ingress"].size(), 1U);
  const KubernetesObject* llm =
      find(rendering, "NetworkPolicy", "llm-training", "allot-default-deny");
  ASSERT_NE(llm, nullptr);
  const json& ingress = llm->manifest["spec"]["ingress"];
  ASSERT_EQ(ingress.size(), 2U);
  EXPECT_EQ(ingress[1], json({{"from", json::array({namespace_peer("research")})}}));
  EXPECT_EQ(llm->manifest["spec"]["egress"].size(), 2U);
}

TEST_F(OrgRenderTest, NetworkPolicyNamesTeamNamespacesAsHyperPodDoes) {
  KubernetesRenderOptions options;
  options.naming = KubernetesNaming::kHyperPod;
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, options);
  const KubernetesObject* research =
      find(rendering, "NetworkPolicy", "hyperpod-ns-research", "allot-default-deny");
  ASSERT_NE(research, nullptr);
  // A team's namespace is rendered as that team's; any other stays as written.
  EXPECT_EQ(
      research->manifest["spec"]["egress"][2]["to"],
      json::array({namespace_peer("hyperpod-ns-llm-training"), namespace_peer("shared-datasets")}));
  const KubernetesObject* llm =
      find(rendering, "NetworkPolicy", "hyperpod-ns-llm-training", "allot-default-deny");
  ASSERT_NE(llm, nullptr);
  EXPECT_EQ(llm->manifest["spec"]["ingress"][1]["from"],
            json::array({namespace_peer("hyperpod-ns-research")}));
}

TEST_F(OrgRenderTest, NamespaceCarriesTeamCohortAndCostOwner) {
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  const KubernetesObject* ns = find(rendering, "Namespace", "", "llm-training");
  ASSERT_NE(ns, nullptr);
  EXPECT_EQ(ns->manifest["metadata"]["labels"]["allot.dev/team"], "llm-training");
  EXPECT_EQ(ns->manifest["metadata"]["labels"]["allot.dev/cohort"], "org");
  EXPECT_EQ(ns->manifest["metadata"]["annotations"]["allot.dev/cost-owner"], "finance@example.com");
}

TEST_F(OrgRenderTest, OutputIsSortedAndDoesNotDependOnTheOrderOfThePolicy) {
  const KubernetesRendering first = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  Policy reversed = bundle_.policy;
  std::reverse(reversed.teams.begin(), reversed.teams.end());
  std::reverse(reversed.priority_classes.begin(), reversed.priority_classes.end());
  std::reverse(reversed.flavors.begin(), reversed.flavors.end());
  RbacPolicy rbac = bundle_.rbac;
  std::reverse(rbac.role_bindings.begin(), rbac.role_bindings.end());
  const KubernetesRendering second = render_kubernetes(reversed, rbac, {});
  ASSERT_EQ(first.objects.size(), second.objects.size());
  for (size_t i = 0; i < first.objects.size(); ++i) {
    EXPECT_EQ(first.objects[i].manifest, second.objects[i].manifest) << i;
  }
  EXPECT_EQ(first.objects.front().kind, "Namespace");
}

TEST_F(OrgRenderTest, MappingReportNamesWhatKueueCannotExpress) {
  const KubernetesRendering rendering = render_kubernetes(bundle_.policy, bundle_.rbac, {});
  const std::string report = format_mapping_report(rendering.notes, "# ");
  for (const char* expected :
       {"several admissions per queue per cycle", "reservations and backfill",
        "checkpoint-aware victims", "idle reclaim", "Budgets and contracts",
        "Resources named by no quota: cpu, memory", "Team/research: allowedPriorityClasses"}) {
    EXPECT_NE(report.find(expected), std::string::npos) << expected;
  }
}

TEST(RichRenderTest, CohortTreeTopologyAndPriorityAnnotations) {
  const ManifestBundle bundle = parse_files({"tests/kubernetes/data/rich-policy.yaml"});
  const KubernetesRendering rendering = render_kubernetes(bundle.policy, bundle.rbac, {});
  const KubernetesObject* ml = find(rendering, "Cohort", "", "ml");
  ASSERT_NE(ml, nullptr);
  EXPECT_EQ(ml->manifest["spec"]["parentName"], "company");
  EXPECT_EQ(ml->manifest["spec"]["fairSharing"]["weight"], "1.5");
  const KubernetesObject* topology = find(rendering, "Topology", "", "block-rack");
  ASSERT_NE(topology, nullptr);
  EXPECT_EQ(topology->manifest["spec"]["levels"].size(), 3U);
  EXPECT_EQ(find(rendering, "ResourceFlavor", "", "h100")->manifest["spec"]["topologyName"],
            "block-rack");
  const KubernetesObject* critical = find(rendering, "WorkloadPriorityClass", "", "critical");
  ASSERT_NE(critical, nullptr);
  EXPECT_EQ(critical->manifest["metadata"]["annotations"]["allot.dev/preemption-policy"], "Never");
  const std::string report = format_mapping_report(rendering.notes, "");
  EXPECT_NE(report.find("PriorityClass/critical: minRuntimeSeconds"), std::string::npos);
  EXPECT_NE(report.find("PriorityClass/critical: preemptionPolicy Never"), std::string::npos);
  // a team in no cohort borrows nothing: its ResourceQuota is its nominal quota.
  EXPECT_EQ(find(rendering, "ResourceQuota", "solo", "allot-quota")
                ->manifest["spec"]["hard"]["requests.nvidia.com/gpu"],
            "2");
}

// What Kueue v0.19.2's webhook and CEL rules refuse is not rendered where it
// means nothing in allot either: limits without a parent (a team in no cohort,
// a root Cohort), borrowWithinCohort without reclaimWithinCohort; and a flavor
// with a topology gets a node label (Kueue requires one).
TEST(RichRenderTest, WhatKueueRefusesAndMeansNothingIsNotRendered) {
  const std::string text = std::string(
      "apiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: bare}\n"
      "spec: {topologyLevels: [rack]}\n---\n"
      "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: root}\n"
      "spec: {quota: [{flavor: bare, resources: {gpu: {nominal: 8, lendingLimit: 4}}}]}\n---\n"
      "apiVersion: allot/v1\nkind: Team\nmetadata: {name: alone}\nspec:\n"
      "  quota: [{flavor: bare, resources: {gpu: {nominal: 2, borrowingLimit: 1, "
      "lendingLimit: 1}}}]\n"
      "  preemption: {reclaimWithinCohort: Never, borrowWithinCohort: "
      "{policy: LowerPriority, maxPriorityThreshold: 5}}\n");
  Result<ManifestBundle> bundle = parse_manifests(text, "t.yaml");
  ASSERT_TRUE(bundle.ok()) << bundle.status().to_string();
  const KubernetesRendering rendering = render_kubernetes(bundle->policy, bundle->rbac, {});
  const json root = find(rendering, "Cohort", "", "root")->manifest["spec"]["resourceGroups"];
  EXPECT_EQ(root[0]["flavors"][0]["resources"][0],
            json({{"name", "nvidia.com/gpu"}, {"nominalQuota", "8"}}));
  const json& queue = find(rendering, "ClusterQueue", "", "alone")->manifest["spec"];
  EXPECT_EQ(queue["resourceGroups"][0]["flavors"][0]["resources"][0],
            json({{"name", "nvidia.com/gpu"}, {"nominalQuota", "2"}}));
  EXPECT_EQ(queue["preemption"]["borrowWithinCohort"], json({{"policy", "Never"}}));
  const json& flavor = find(rendering, "ResourceFlavor", "", "bare")->manifest["spec"];
  EXPECT_EQ(flavor["nodeLabels"], json({{"allot.dev/flavor", "bare"}}));
  EXPECT_EQ(flavor["topologyName"], "rack");
}

}  // namespace
}  // namespace allot
