// import_kueue(): Kueue's documentation examples become the policy a Kueue
// user expects; what allot cannot express is an error naming the document
// and field.
#include "api/kubernetes/kueue_import.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubernetes/kubernetes_test_files.h"

namespace allot {
namespace {

using testing::read_text;
using testing::source_path;

Result<Policy> import_file(const std::string& relative) {
  return import_kueue(read_text(source_path(relative)), "examples.yaml", KubernetesNaming::kPlain);
}

TEST(KueueImportTest, DocumentationExamplesBecomeTeamsCohortsAndClasses) {
  Result<Policy> policy = import_file("tests/kubernetes/data/kueue-docs-examples.yaml");
  ASSERT_TRUE(policy.ok()) << policy.status().to_string();
  ASSERT_EQ(policy->teams.size(), 4U);

  const Team* single = policy->find_team("cluster-queue");
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(single->namespace_name, "default");  // its LocalQueue's namespace
  EXPECT_EQ(single->cohort, "");
  ASSERT_EQ(single->quota.size(), 1U);
  EXPECT_EQ(single->quota[0].flavor, "default-flavor");
  EXPECT_EQ(single->quota[0].of(Resource::kCpu).nominal, 9000);  // millicores
  EXPECT_EQ(single->quota[0].of(Resource::kMemory).nominal, int64_t{36} << 30);
  EXPECT_FALSE(single->quota[0].declared[static_cast<size_t>(Resource::kGpu)]);

  const Team* a = policy->find_team("team-a-cq");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->cohort, "team-ab");  // v1beta1's spec.cohort
  EXPECT_EQ(a->queueing, QueueingStrategy::kStrictFifo);
  EXPECT_EQ(a->preemption.reclaim_within_cohort, ReclaimPolicy::kAny);
  EXPECT_EQ(a->preemption.within_team, WithinTeamPolicy::kLowerPriority);
  EXPECT_EQ(a->preemption.borrow_within_cohort, BorrowWithinCohortPolicy::kLowerPriority);
  EXPECT_EQ(a->preemption.borrow_max_priority_threshold, 100);
  const ResourceQuota& cpu = a->quota[0].of(Resource::kCpu);
  EXPECT_EQ(cpu.nominal, 9000);
  EXPECT_EQ(cpu.borrowing_limit, 6000);
  EXPECT_EQ(cpu.lending_limit, 3000);
  EXPECT_EQ(a->quota[0].of(Resource::kMemory).borrowing_limit, int64_t{24} << 30);

  const Team* b = policy->find_team("team-b-cq");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->cohort, "team-ab");  // v1beta2's spec.cohortName
  EXPECT_DOUBLE_EQ(b->fair_share_weight, 2.0);
  EXPECT_EQ(b->quota[0].of(Resource::kGpu).nominal, 2);
  EXPECT_EQ(b->quota[0].of(Resource::kMemory).lending_limit, int64_t{16} << 30);

  const Cohort* team_ab = policy->find_cohort("team-ab");
  ASSERT_NE(team_ab, nullptr);
  EXPECT_EQ(team_ab->parent, "org");
  EXPECT_DOUBLE_EQ(team_ab->fair_share_weight, 0.5);
  ASSERT_EQ(policy->find_cohort("org")->quota.size(), 1U);
  EXPECT_EQ(policy->find_cohort("org")->quota[0].of(Resource::kCpu).nominal, 4000);

  const PriorityClass* sample = policy->find_priority_class("sample-priority");
  ASSERT_NE(sample, nullptr);
  EXPECT_EQ(sample->value, 10000);
  EXPECT_EQ(policy->find_flavor("spot")->node_labels.at("instance-type"), "spot");
}

// Several resource groups: flavor per group, each flavor with its group's
// resources only, flavors in group order.
TEST(KueueImportTest, SeveralResourceGroupsGiveEachFlavorItsGroupsResources) {
  Result<Policy> policy = import_file("tests/kubernetes/data/kueue-docs-examples.yaml");
  ASSERT_TRUE(policy.ok()) << policy.status().to_string();
  const Team* c = policy->find_team("team-c-cq");
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->quota.size(), 3U);
  const auto declared = [](const FlavorQuota& flavor, Resource resource) {
    return flavor.declared[static_cast<size_t>(resource)];
  };
  EXPECT_EQ(c->quota[0].flavor, "default-flavor");
  EXPECT_EQ(c->quota[0].of(Resource::kCpu).nominal, 12'000);
  EXPECT_EQ(c->quota[0].of(Resource::kMemory).nominal, int64_t{48} << 30);
  EXPECT_FALSE(declared(c->quota[0], Resource::kGpu));
  EXPECT_EQ(c->quota[1].flavor, "vendor-a");
  EXPECT_EQ(c->quota[1].of(Resource::kGpu).nominal, 4);
  EXPECT_EQ(c->quota[1].of(Resource::kGpu).borrowing_limit, 2);
  EXPECT_FALSE(declared(c->quota[1], Resource::kCpu));
  EXPECT_FALSE(declared(c->quota[1], Resource::kMemory));
  EXPECT_EQ(c->quota[2].flavor, "vendor-b");
  EXPECT_EQ(c->quota[2].of(Resource::kGpu).nominal, 2);
}

// The documents of kueue-unsupported.yaml, one by one.
std::vector<std::string> unsupported_documents() {
  const std::string text = read_text(source_path("tests/kubernetes/data/kueue-unsupported.yaml"));
  std::vector<std::string> documents;
  size_t start = text.find("\n---\n");
  while (start != std::string::npos) {
    const size_t next = text.find("\n---\n", start + 5);
    documents.push_back(
        text.substr(start + 5, next == std::string::npos ? next : next - start - 5));
    start = next;
  }
  return documents;
}

TEST(KueueImportTest, WhatAllotCannotExpressIsAnErrorNamingTheField) {
  const std::vector<std::string> documents = unsupported_documents();
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"document 1 (ClusterQueue/pods-quota): spec.resourceGroups[0].coveredResources[2]",
       "'pods'"},
      {"document 1 (ClusterQueue/resource-in-two-groups): "
       "spec.resourceGroups[1].coveredResources[1]",
       "covered by spec.resourceGroups[0].coveredResources[0] already"},
      {"document 1 (ClusterQueue/flavor-in-two-groups): spec.resourceGroups[1].flavors[0].name",
       "listed at spec.resourceGroups[0].flavors[0] already"},
      {"document 1 (ClusterQueue/with-checks): spec.admissionChecksStrategy", "cannot express"},
      {"document 1 (ClusterQueue/newer-equal): spec.preemption.withinClusterQueue",
       "LowerOrNewerEqualPriority"},
      {"document 1 (ResourceFlavor/tainted): spec.nodeTaints", "cannot express"},
      {"document 1 (ClusterQueue/fungible): spec.flavorFungibility", "flavor fungibility"},
      {"document 1 (ClusterQueue/held): spec.stopPolicy", "hold or drain"},
      {"document 1 (Deployment/web): apiVersion", "apps/v1"},
  };
  ASSERT_EQ(documents.size(), expected.size());
  for (size_t i = 0; i < documents.size(); ++i) {
    Result<Policy> policy = import_kueue(documents[i], "objects.yaml", KubernetesNaming::kPlain);
    ASSERT_FALSE(policy.ok()) << i;
    EXPECT_EQ(policy.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(policy.status().details(), "objects.yaml: " + expected[i].first);
    EXPECT_NE(policy.status().message().find(expected[i].second), std::string::npos)
        << policy.status().message();
  }
}

TEST(KueueImportTest, OneClusterQueueServesOneNamespace) {
  const std::string text =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\n---\n"
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: a, namespace: x}\n"
      "spec: {clusterQueue: q}\n---\n"
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: b, namespace: y}\n"
      "spec: {clusterQueue: q}\n";
  Result<Policy> policy = import_kueue(text, "q.yaml", KubernetesNaming::kPlain);
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().details(), "q.yaml: document 3 (LocalQueue/b): spec.clusterQueue");
  EXPECT_NE(policy.status().message().find("already serves namespace x"), std::string::npos);
}

TEST(KueueImportTest, ReferencesAreCheckedLikeAppliedPolicy) {
  // A ClusterQueue naming a flavor that no document defines is refused as allot refuses it.
  const std::string text =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n"
      "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
      "    - {name: missing, resources: [{name: cpu, nominalQuota: 1}]}\n";
  Result<Policy> policy = import_kueue(text, "q.yaml", KubernetesNaming::kPlain);
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().to_string().find("missing"), std::string::npos);
}

TEST(KueueImportTest, ANamespaceSelectorOfOneNamespaceIsTheTeamsNamespace) {
  const std::string text =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\n"
      "spec: {namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: team-q}}}\n";
  Result<Policy> policy = import_kueue(text, "q.yaml", KubernetesNaming::kPlain);
  ASSERT_TRUE(policy.ok()) << policy.status().to_string();
  EXPECT_EQ(policy->teams[0].namespace_name, "team-q");
}

TEST(KueueImportTest, BadYamlNamesTheFile) {
  Result<Policy> policy = import_kueue("kind: [", "bad.yaml", KubernetesNaming::kPlain);
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().details().find("bad.yaml"), std::string::npos);
}

}  // namespace
}  // namespace allot

namespace allot {
namespace {

// Values of another shape than Kueue's are errors at the document, never a crash.
TEST(KueueImportTest, MalformedShapesAreErrorsAtTheDocument) {
  const char* const documents[] = {
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: [q]\n",
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\nspec: []\n",
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\n"
      "spec: {resourceGroups: [{coveredResources: cpu, flavors: 3}]}\n",
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: q}\n"
      "spec: {preemption: {borrowWithinCohort: {maxPriorityThreshold: 99999999999}}}\n",
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\nmetadata: {name: t}\n"
      "spec: {levels: [rack]}\n",
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: l, namespace: [x]}\n"
      "spec: {clusterQueue: q}\n",
  };
  for (const char* text : documents) {
    Result<Policy> policy = import_kueue(text, "m.yaml", KubernetesNaming::kPlain);
    ASSERT_FALSE(policy.ok()) << text;
    EXPECT_EQ(policy.status().code(), ErrorCode::kInvalidArgument) << text;
    EXPECT_EQ(policy.status().details().rfind("m.yaml: document 1 (", 0), 0U)
        << text << " -> " << policy.status().to_string();
  }
}

// Found by the fuzzer: a kind, apiVersion or name that is not a string threw
// out of import_kueue(); it is an error at the document, named before its kind.
TEST(KueueImportTest, AHeaderThatIsNotAStringIsAnErrorAtTheDocument) {
  const char* const documents[] = {
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: [ClusterQueue]\nmetadata: {name: q}\n",
      "apiVersion: {v: 1}\nkind: ClusterQueue\nmetadata: {name: q}\n",
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: [q]}\n",
  };
  for (const char* text : documents) {
    Result<Policy> policy = import_kueue(text, "m.yaml", KubernetesNaming::kPlain);
    ASSERT_FALSE(policy.ok()) << text;
    EXPECT_EQ(policy.status().code(), ErrorCode::kInvalidArgument) << text;
    EXPECT_EQ(policy.status().details(), "m.yaml: document 1") << text;
    EXPECT_NE(policy.status().message().find("type must be string"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace allot
