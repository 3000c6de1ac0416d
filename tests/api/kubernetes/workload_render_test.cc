// render_workload(): a Job or a PyTorchJob with Kueue's labels.
#include "api/kubernetes/workload_render.h"

#include <gtest/gtest.h>

#include "kubernetes/kubernetes_test_files.h"

namespace allot {
namespace {

using nlohmann::json;
using testing::parse_files;

const Workload& workload(const ManifestBundle& bundle, std::string_view name) {
  for (const Workload& w : bundle.workloads) {
    if (w.meta.name == name) return w;
  }
  ADD_FAILURE() << "no workload " << name;
  return bundle.workloads.front();
}

TEST(WorkloadRenderTest, JobCarriesQueueAndPriorityLabelsAndPodSetResources) {
  const ManifestBundle bundle =
      parse_files({"examples/org/policy.yaml", "examples/org/demo-workloads.yaml"});
  Result<KubernetesObject> job =
      render_workload(workload(bundle, "sweep"), bundle.policy, "img", {});
  ASSERT_TRUE(job.ok()) << job.status().to_string();
  EXPECT_EQ(job->kind, "Job");
  const json& manifest = job->manifest;
  EXPECT_EQ(manifest["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], "research");
  EXPECT_EQ(manifest["metadata"]["labels"]["kueue.x-k8s.io/priority-class"], "batch");
  EXPECT_EQ(manifest["spec"]["parallelism"], 3);
  EXPECT_EQ(manifest["spec"]["suspend"], true);
  const json& container = manifest["spec"]["template"]["spec"]["containers"][0];
  EXPECT_EQ(container["resources"]["limits"]["nvidia.com/gpu"], "4");
  EXPECT_EQ(container["resources"]["requests"]["memory"], "4Gi");
  EXPECT_EQ(manifest["spec"]["template"]["spec"]["terminationGracePeriodSeconds"], 5);
}

TEST(WorkloadRenderTest, TrainingJobIsAPyTorchJobWithCheckpointEnvironment) {
  const ManifestBundle bundle =
      parse_files({"examples/org/policy.yaml", "examples/org/demo-pretrain.yaml"});
  KubernetesRenderOptions options;
  options.naming = KubernetesNaming::kHyperPod;
  Result<KubernetesObject> job =
      render_workload(workload(bundle, "llama-pretrain"), bundle.policy, "img", options);
  ASSERT_TRUE(job.ok()) << job.status().to_string();
  EXPECT_EQ(job->kind, "PyTorchJob");
  EXPECT_EQ(job->namespace_name, "hyperpod-ns-llm-training");
  EXPECT_EQ(job->manifest["metadata"]["labels"]["kueue.x-k8s.io/queue-name"],
            "hyperpod-ns-llm-training-localqueue");
  EXPECT_EQ(job->manifest["metadata"]["labels"]["kueue.x-k8s.io/priority-class"],
            "production-priority");
  const json& replicas = job->manifest["spec"]["pytorchReplicaSpecs"];
  EXPECT_EQ(replicas["Master"]["replicas"], 1);
  EXPECT_EQ(replicas["Worker"]["replicas"], 1);
  const json& env = replicas["Master"]["template"]["spec"]["containers"][0]["env"];
  EXPECT_EQ(env[0],
            json({{"name", "ALLOT_CHECKPOINT_DIR"}, {"value", "/checkpoints/llama-pretrain"}}));
  EXPECT_EQ(job->manifest["spec"]["runPolicy"]["activeDeadlineSeconds"], 3600);
}

TEST(WorkloadRenderTest, AnEndpointIsNotRendered) {
  const ManifestBundle bundle =
      parse_files({"examples/org/policy.yaml", "examples/org/demo-workloads.yaml"});
  Result<KubernetesObject> object =
      render_workload(workload(bundle, "detector"), bundle.policy, "img", {});
  ASSERT_FALSE(object.ok());
  EXPECT_EQ(object.status().details(), "spec.kind");
}

}  // namespace
}  // namespace allot
