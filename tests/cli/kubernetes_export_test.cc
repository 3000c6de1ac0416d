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

namespace {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "allot_kube_" + info->name() + "_" + name;
}

Outcome run_allot(const std::string& args) {
  const std::string out_path = temp_path("stdout");
  const std::string err_path = temp_path("stderr");
  const std::string command =
      std::string("'") + ALLOT_BIN + "' " + args + " >'" + out_path + "' 2>'" + err_path + "'";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out_path), read_file(err_path)};
}

const std::string kSource = ALLOT_SOURCE_DIR;
const std::string kOrg =
    "-f '" + kSource + "/examples/org/policy.yaml' -f '" + kSource + "/examples/org/rbac.yaml'";

void expect_golden(const std::string& args, const std::string& golden) {
  const Outcome outcome = run_allot(args);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string path = kSource + "/tests/kubernetes/golden/" + golden;
  if (std::getenv("ALLOT_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << outcome.out;
  }
  EXPECT_EQ(outcome.out, read_file(path))
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
  const std::string dir = temp_path("out");
  std::filesystem::remove_all(dir);
  const Outcome outcome = run_allot("export kubernetes " + kOrg + " --out '" + dir + "'");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "37 objects and MAPPING.md written to " + dir + "\n");
  EXPECT_TRUE(std::filesystem::exists(dir + "/001-namespace-llm-training.yaml"));
  EXPECT_TRUE(
      std::filesystem::exists(dir + "/037-localqueue-vision-inference-vision-inference.yaml"));
  EXPECT_NE(read_file(dir + "/MAPPING.md").find("reservations and backfill"), std::string::npos);
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.is_regular_file();
  EXPECT_EQ(files, 38U);
}

TEST(KubernetesExportTest, ImportPrintsAllotManifestsThatApplyAsPolicy) {
  const std::string rendered = temp_path("rendered.yaml");
  const Outcome exported = run_allot("export kubernetes " + kOrg);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  std::ofstream(rendered, std::ios::binary) << exported.out;
  const Outcome imported = run_allot("import kubernetes -f '" + rendered + "'");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("kind: Team"), std::string::npos);
  EXPECT_NE(imported.out.find("borrowingLimit: \"6\""), std::string::npos) << imported.out;
  // What import prints is a policy allot reads: export it again, same Kueue objects.
  const std::string policy = temp_path("policy.yaml");
  std::ofstream(policy, std::ios::binary) << imported.out;
  const Outcome again = run_allot("export kubernetes -f '" + policy + "'");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("name: llm-training"), std::string::npos);
}

TEST(KubernetesExportTest, ImportOfWhatAllotCannotExpressNamesTheField) {
  const Outcome outcome = run_allot("import kubernetes -f '" + kSource +
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
  EXPECT_EQ(run_allot("export slurm " + kOrg).exit_code, 2);
  EXPECT_EQ(run_allot("export kubernetes " + kOrg + " --kueue-api v1").exit_code, 2);
  const Outcome no_image = run_allot("export kubernetes workload sweep " + kOrg);
  EXPECT_EQ(no_image.exit_code, 2);
  EXPECT_NE(no_image.err.find("--image"), std::string::npos);
}

}  // namespace
