#include "backends/local/pod_command.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/local/data_layout.h"
#include "backends/local/process_spawn.h"

namespace allot::local {
namespace {

TEST(PodArgv, CommandIsPassedAsIsWithoutAShell) {
  PodLaunch pod;
  pod.command = {"python3", "train.py", "--lr", "0.1; rm -rf /"};
  EXPECT_EQ(pod_argv(pod), pod.command);
}

TEST(CudaVisibleDevices, UsesUuidsOfDiscoveredGpusAndIndicesOtherwise) {
  const std::vector<GpuDevice> discovered = {{0, "GPU-a", "H100"}, {1, "GPU-b", "H100"}};
  EXPECT_EQ(cuda_visible_devices({}, discovered), "");
  EXPECT_EQ(cuda_visible_devices({1, 0}, discovered), "GPU-b,GPU-a");
  EXPECT_EQ(cuda_visible_devices({1, 5}, discovered), "GPU-b,5");
  EXPECT_EQ(cuda_visible_devices({2, 3}, {}), "2,3");
}

TEST(PodEnv, AllotsVariablesWinOverThePodsWhichWinOverTheBase) {
  PodLaunch pod;
  pod.workload_id = 42;
  pod.workload_name = "train";
  pod.namespace_name = "vision";
  pod.team = "cv";
  pod.node = "gpu-3";
  pod.pod_index = 1;
  pod.env = {{"PATH", "/opt/bin"}, {"CUDA_VISIBLE_DEVICES", "0,1,2,3"}, {"X", "y"}};
  const std::vector<std::string> env =
      pod_env(pod, PodPlace{"allot-cv", "/d/homes/allot-cv", "/d/teams/cv/shared"}, "GPU-a");
  const std::vector<std::string> expected = {"ALLOT_NAMESPACE=vision",
                                             "ALLOT_NODE=gpu-3",
                                             "ALLOT_POD_INDEX=1",
                                             "ALLOT_SHARED_DIR=/d/teams/cv/shared",
                                             "ALLOT_TEAM=cv",
                                             "ALLOT_WORKLOAD=train",
                                             "ALLOT_WORKLOAD_ID=42",
                                             "CUDA_VISIBLE_DEVICES=GPU-a",
                                             "HOME=/d/homes/allot-cv",
                                             "LANG=C.UTF-8",
                                             "PATH=/opt/bin",
                                             "USER=allot-cv",
                                             "X=y"};
  EXPECT_EQ(env, expected);
}

TEST(PodEnv, AllotUserIsTheSubmitterAndNeverThePodsOwnWord) {
  PodLaunch pod;
  pod.team = "cv";
  pod.env = {{"ALLOT_USER", "mallory"}};
  const PodPlace place{"allot-cv_ana", "/d/teams/cv/homes/allot-cv_ana", "/d/teams/cv/shared"};
  const auto value_of = [](const std::vector<std::string>& env, const std::string& name) {
    for (const std::string& entry : env) {
      if (entry.starts_with(name + "=")) return entry.substr(name.size() + 1);
    }
    return std::string("(unset)");
  };
  pod.user = "ana";
  std::vector<std::string> env = pod_env(pod, place, "");
  EXPECT_EQ(value_of(env, "ALLOT_USER"), "ana");
  EXPECT_EQ(value_of(env, "USER"), "allot-cv_ana");
  EXPECT_EQ(value_of(env, "HOME"), "/d/teams/cv/homes/allot-cv_ana");
  pod.user = "";  // not known: unset, whatever the pod asked for
  env = pod_env(pod, place, "");
  EXPECT_EQ(value_of(env, "ALLOT_USER"), "(unset)");
}

TEST(ValidatePodLaunch, RejectsWhatCannotBecomeAProcess) {
  PodLaunch pod;
  EXPECT_EQ(validate_pod_launch(pod).code(), ErrorCode::kInvalidArgument);  // no command
  pod.command = {"/bin/sleep", "1"};
  EXPECT_TRUE(validate_pod_launch(pod).ok());
  pod.gpus = {-1};
  EXPECT_EQ(validate_pod_launch(pod).code(), ErrorCode::kInvalidArgument);
  pod.gpus = {};
  pod.env = {{"", "x"}};
  EXPECT_EQ(validate_pod_launch(pod).code(), ErrorCode::kInvalidArgument);
  pod.env = {{"A", std::string("a\0b", 3)}};
  EXPECT_EQ(validate_pod_launch(pod).code(), ErrorCode::kInvalidArgument);
  pod.env = {};
  pod.user = std::string("an\0a", 4);
  EXPECT_EQ(validate_pod_launch(pod).code(), ErrorCode::kInvalidArgument);
}

TEST(ExecCandidates, SearchesPathUnlessTheProgramHasASlash) {
  EXPECT_EQ(exec_candidates("ls", "/usr/bin:/bin"),
            (std::vector<std::string>{"/usr/bin/ls", "/bin/ls"}));
  EXPECT_EQ(exec_candidates("ls", "/a::/b"), (std::vector<std::string>{"/a/ls", "./ls", "/b/ls"}));
  EXPECT_EQ(exec_candidates("./run.sh", "/usr/bin"), (std::vector<std::string>{"./run.sh"}));
  EXPECT_TRUE(exec_candidates("", "/usr/bin").empty());
}

TEST(PathComponent, NamesCannotClimbOutOfTheDataDirectory) {
  EXPECT_EQ(path_component("train-1.v2"), "train-1.v2");
  EXPECT_EQ(path_component("../../etc"), ".._.._etc");
  EXPECT_EQ(path_component(".."), "_..");
  EXPECT_EQ(path_component("."), "_.");
  EXPECT_EQ(path_component(""), "_");
  EXPECT_EQ(path_component("a/b c"), "a_b_c");
}

}  // namespace
}  // namespace allot::local
