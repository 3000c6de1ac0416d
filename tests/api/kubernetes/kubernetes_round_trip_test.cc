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
  const auto widen = [](std::vector<FlavorQuota>& quota) {
    std::array<bool, kResourceCount> named{};
    for (const FlavorQuota& f : quota) {
      for (size_t r = 0; r < named.size(); ++r) named[r] = named[r] || f.declared[r];
    }
    for (FlavorQuota& f : quota) f.declared = named;
  };
  for (Team& team : policy.teams) {
    team.owners = {};
    team.storage.clear();
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
