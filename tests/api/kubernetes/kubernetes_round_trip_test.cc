// Round trip: render -> import -> the same quota model (nominal,
// borrowingLimit, lendingLimit, the cohort tree, preemption policies,
// priority values, fair-share weights), for every naming and Kueue API
// version; and the allot manifests that `allot import` prints read back as
// the same policy.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "api/kubernetes/kubernetes_parts.h"
#include "api/kubernetes/kubernetes_render.h"
#include "api/kubernetes/kueue_import.h"
#include "api/kubernetes/policy_manifests.h"
#include "kubernetes/kubernetes_test_files.h"

namespace allot {
namespace {

using testing::parse_files;
using testing::read_text;
using testing::source_path;

template <typename T>
void sort_by_name(std::vector<T>& items) {
  std::sort(items.begin(), items.end(),
            [](const T& a, const T& b) { return a.meta.name < b.meta.name; });
}

// What Kueue carries of a policy: the quota model. A resource one flavor of a
// team names is rendered (nominal 0) for its other flavors too: the same meaning.
// A flavor's topology may come from its pools (nodesPerRack): Kueue's Topology carries it.
Policy quota_model(Policy policy, KubernetesNaming naming) {
  for (ResourceFlavor& flavor : policy.flavors) {
    flavor.topology_levels = flavor_topology_levels(flavor, policy);
  }
  policy.clusters.clear();
  policy.node_pools.clear();
  for (ResourceFlavor& flavor : policy.flavors) flavor.price = {};
  // One rendered resource group covers every resource; its undeclared ones
  // come back as nominal 0 (kubernetes_parts.h, resource_groups_json()).
  const auto widen = [](std::vector<FlavorQuota>& quota) {
    if (resource_groups_json(quota, true).size() > 1) return;
    std::array<bool, kResourceCount> named{};
    for (const FlavorQuota& f : quota) {
      for (size_t r = 0; r < named.size(); ++r) named[r] = named[r] || f.declared[r];
    }
    for (FlavorQuota& f : quota) f.declared = named;
  };
  // Limits without a parent, and borrowWithinCohort without reclaimWithinCohort,
  // mean nothing in allot or Kueue; Kueue refuses them, so they are not rendered.
  const auto drop_limits = [](std::vector<FlavorQuota>& quota) {
    for (FlavorQuota& flavor : quota) {
      for (ResourceQuota& q : flavor.resources) q.borrowing_limit = q.lending_limit = std::nullopt;
    }
  };
  for (Team& team : policy.teams) {
    if (team.cohort.empty()) drop_limits(team.quota);
    if (team.preemption.reclaim_within_cohort == ReclaimPolicy::kNever) {
      team.preemption.borrow_within_cohort = BorrowWithinCohortPolicy::kNever;
      team.preemption.borrow_max_priority_threshold.reset();
    }
  }
  for (Cohort& cohort : policy.cohorts) {
    if (cohort.parent.empty()) drop_limits(cohort.quota);
  }
  for (Team& team : policy.teams) {
    team.owners = {};
    team.storage.clear();
    team.network = {};  // a NetworkPolicy is not read back (not the quota model)
    team.allowed_priority_classes.clear();
    team.meta.labels.clear();
    if (naming == KubernetesNaming::kHyperPod) team.namespace_name = team.meta.name;
    widen(team.quota);
  }
  for (Cohort& cohort : policy.cohorts) widen(cohort.quota);
  sort_by_name(policy.flavors);
  sort_by_name(policy.cohorts);
  sort_by_name(policy.teams);
  sort_by_name(policy.priority_classes);
  return policy;
}

std::string stream(const KubernetesRendering& rendering) {
  std::string text;
  for (const KubernetesObject& object : rendering.objects)
    text += "---\n" + object.manifest.dump() + "\n";
  return text;
}

void expect_round_trip(const Policy& policy, const RbacPolicy& rbac) {
  for (KubernetesNaming naming : {KubernetesNaming::kPlain, KubernetesNaming::kHyperPod}) {
    for (KueueApiVersion api : {KueueApiVersion::kV1beta1, KueueApiVersion::kV1beta2}) {
      KubernetesRenderOptions options;
      options.naming = naming;
      options.kueue_api = api;
      Result<Policy> imported =
          import_kueue(stream(render_kubernetes(policy, rbac, options)), "rendered.yaml", naming);
      ASSERT_TRUE(imported.ok()) << imported.status().to_string();
      EXPECT_EQ(quota_model(*imported, naming), quota_model(policy, naming))
          << "naming " << static_cast<int>(naming) << " api " << kueue_api_version(api);
    }
  }
}

TEST(KubernetesRoundTripTest, ExampleOrganisationIsLossless) {
  const ManifestBundle bundle = parse_files({"examples/org/policy.yaml", "examples/org/rbac.yaml"});
  expect_round_trip(bundle.policy, bundle.rbac);
}

TEST(KubernetesRoundTripTest, EveryPartOfTheQuotaModelIsLossless) {
  const ManifestBundle bundle = parse_files({"tests/kubernetes/data/rich-policy.yaml"});
  ASSERT_EQ(bundle.policy.cohorts.size(), 2U);
  expect_round_trip(bundle.policy, bundle.rbac);
}

// Kueue's examples, with a ClusterQueue of two resource groups: imported,
// rendered (two groups again) and imported back, the quota model is unchanged.
TEST(KubernetesRoundTripTest, SeveralResourceGroupsAreLossless) {
  Result<Policy> imported =
      import_kueue(read_text(source_path("tests/kubernetes/data/kueue-docs-examples.yaml")),
                   "examples.yaml", KubernetesNaming::kPlain);
  ASSERT_TRUE(imported.ok()) << imported.status().to_string();
  const KubernetesRendering rendering = render_kubernetes(*imported, {}, {});
  const auto queue = std::find_if(
      rendering.objects.begin(), rendering.objects.end(),
      [](const KubernetesObject& o) { return o.kind == "ClusterQueue" && o.name == "team-c-cq"; });
  ASSERT_NE(queue, rendering.objects.end());
  const nlohmann::json& groups = queue->manifest["spec"]["resourceGroups"];
  ASSERT_EQ(groups.size(), 2U) << groups.dump();
  EXPECT_EQ(groups[0]["coveredResources"], nlohmann::json::array({"cpu", "memory"}));
  EXPECT_EQ(groups[1]["coveredResources"], nlohmann::json::array({"nvidia.com/gpu"}));
  EXPECT_EQ(groups[1]["flavors"].size(), 2U);
  expect_round_trip(*imported, {});
}

TEST(KubernetesRoundTripTest, ImportedPolicyIsWrittenAsManifestsThatReadBack) {
  const ManifestBundle bundle = parse_files({"tests/kubernetes/data/rich-policy.yaml"});
  Result<Policy> imported = import_kueue(stream(render_kubernetes(bundle.policy, bundle.rbac, {})),
                                         "r.yaml", KubernetesNaming::kPlain);
  ASSERT_TRUE(imported.ok()) << imported.status().to_string();
  std::string text;
  for (const nlohmann::json& document : policy_manifests(*imported)) {
    text += "---\n" + document.dump() + "\n";
  }
  Result<ManifestBundle> reread = parse_manifests(text, "imported.yaml");
  ASSERT_TRUE(reread.ok()) << reread.status().to_string();
  EXPECT_EQ(reread->policy, *imported);
}

}  // namespace
}  // namespace allot
