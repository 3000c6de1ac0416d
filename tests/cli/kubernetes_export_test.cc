// `allot export kubernetes` and `allot import kubernetes`, run as the built
// executable: the golden files of the example organisation (reviewed by a
// person who knows Kueue; ALLOT_UPDATE_GOLDEN=1 rewrites them), one file per
// object with --out, workloads, and import's output and errors.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "allot_executable.h"

namespace {

using Outcome = allot::cli::testing::ExecutableOutcome;
using allot::cli::testing::read_text_file;
using allot::cli::testing::write_text_file;

std::string kube_temp_path(const std::string& name) {
  return allot::cli::testing::test_temp_path("allot_kube", name);
}

Outcome run_kube_export(const std::string& args) {
  return allot::cli::testing::run_allot_executable("allot_kube", args);
}

const std::string kSource = ALLOT_SOURCE_DIR;
const std::string kOrg =
    "-f '" + kSource + "/examples/org/policy.yaml' -f '" + kSource + "/examples/org/rbac.yaml'";

void expect_golden(const std::string& args, const std::string& golden) {
  const Outcome outcome = run_kube_export(args);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string path = kSource + "/tests/kubernetes/golden/" + golden;
  if (std::getenv("ALLOT_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << outcome.out;
  }
  EXPECT_EQ(outcome.out, read_text_file(path))
      << "differs from " << path << " (ALLOT_UPDATE_GOLDEN=1 rewrites it)";
}

TEST(KubernetesExportTest, ExampleOrganisationMatchesTheGoldenFiles) {
  expect_golden("export kubernetes " + kOrg, "org-plain-v1beta2.yaml");
  expect_golden("export kubernetes " + kOrg + " --flavor hyperpod --kueue-api v1beta1",
                "org-hyperpod-v1beta1.yaml");
  expect_golden("export kubernetes workload llama-pretrain -n llm-training -f '" + kSource +
                    "/examples/org/policy.yaml' -f '" + kSource +
                    "/examples/org/demo-pretrain.yaml' --image ghcr.io/example/llama:1",
                "workload-llama-pretrain.yaml");
}

TEST(KubernetesExportTest, OutWritesOneFilePerObjectAndTheMappingReport) {
  const std::string dir = kube_temp_path("out");
  std::filesystem::remove_all(dir);
  const Outcome outcome = run_kube_export("export kubernetes " + kOrg + " --out '" + dir + "'");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "37 objects and MAPPING.md written to " + dir + "\n");
  EXPECT_TRUE(std::filesystem::exists(dir + "/001-namespace-llm-training.yaml"));
  EXPECT_TRUE(
      std::filesystem::exists(dir + "/037-localqueue-vision-inference-vision-inference.yaml"));
  EXPECT_NE(read_text_file(dir + "/MAPPING.md").find("reservations and backfill"),
            std::string::npos);
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.is_regular_file();
  EXPECT_EQ(files, 38U);
}

TEST(KubernetesExportTest, ImportPrintsAllotManifestsThatApplyAsPolicy) {
  const std::string rendered = kube_temp_path("rendered.yaml");
  const Outcome exported = run_kube_export("export kubernetes " + kOrg);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  std::ofstream(rendered, std::ios::binary) << exported.out;
  const Outcome imported = run_kube_export("import kubernetes -f '" + rendered + "'");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("kind: Team"), std::string::npos);
  EXPECT_NE(imported.out.find("borrowingLimit: \"6\""), std::string::npos) << imported.out;
  // What import prints is a policy allot reads: export it again, same Kueue objects.
  const std::string policy = kube_temp_path("policy.yaml");
  std::ofstream(policy, std::ios::binary) << imported.out;
  const Outcome again = run_kube_export("export kubernetes -f '" + policy + "'");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("name: llm-training"), std::string::npos);
}

TEST(KubernetesExportTest, ImportOfWhatAllotCannotExpressNamesTheField) {
  const Outcome outcome = run_kube_export("import kubernetes -f '" + kSource +
                                          "/tests/kubernetes/data/kueue-unsupported.yaml'");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(
      outcome.err.find("(at " + kSource +
                       "/tests/kubernetes/data/kueue-unsupported.yaml: document 1 "
                       "(ClusterQueue/pods-quota): spec.resourceGroups[0].coveredResources[2])"),
      std::string::npos)
      << outcome.err;
}

TEST(KubernetesExportTest, UsageErrorsExitTwo) {
  EXPECT_EQ(run_kube_export("export slurm " + kOrg).exit_code, 2);
  EXPECT_EQ(run_kube_export("export kubernetes " + kOrg + " --kueue-api v1").exit_code, 2);
  const Outcome no_image = run_kube_export("export kubernetes workload sweep " + kOrg);
  EXPECT_EQ(no_image.exit_code, 2);
  EXPECT_NE(no_image.err.find("--image"), std::string::npos);
}

}  // namespace
