// GPU utilisation through NVML (nvml_library.h, gpu_sampler.h) and its
// attribution to the pods holding the GPUs (LocalExecutor::gpu_usage()),
// against a fake NVML library built with the tests (local/fake_nvml.cc)
// whose GPUs come from a file this test writes.
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "backends/local/gpu_discovery.h"
#include "backends/local/gpu_sampler.h"
#include "backends/local/local_executor.h"
#include "base/clock.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ScratchDir;
using testing::shell_pod;

constexpr int64_t kGiB = int64_t{1} << 30;

class GpuUtilizationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = scratch_.path() + "/fake-nvml.txt";
    ::setenv("ALLOT_FAKE_NVML_FILE", file_.c_str(), 1);
  }
  void TearDown() override { ::unsetenv("ALLOT_FAKE_NVML_FILE"); }
  void write_gpus(const std::string& lines) const {
    std::ofstream out(file_, std::ios::trunc);
    out << lines;
  }

  ScratchDir scratch_;
  std::string file_;
  ManualClock clock_{Timestamp::from_millis(1'700'000'000'000)};
};

TEST_F(GpuUtilizationTest, DiscoveryListsTheFakeGpusByUuidNameAndMinor) {
  write_gpus("GPU-aaaa 10 0 80 Fake H100\nGPU-bbbb 20 0 80 Fake H100\n");
  const GpuDiscovery found = discover_gpus(ALLOT_FAKE_NVML);
  ASSERT_TRUE(found.reason.empty()) << found.reason;
  EXPECT_EQ(found.devices, (std::vector<GpuDevice>{{0, "GPU-aaaa", "Fake H100", 0},
                                                   {1, "GPU-bbbb", "Fake H100", 1}}));
}

TEST_F(GpuUtilizationTest, ANvmlThatDoesNotInitialiseGivesNoGpusAndNvmlsWords) {
  // No file: the fake's nvmlInit_v2 answers "driver not loaded".
  const GpuDiscovery found = discover_gpus(ALLOT_FAKE_NVML);
  EXPECT_TRUE(found.devices.empty());
  EXPECT_EQ(found.reason, "nvmlInit_v2 failed: Driver Not Loaded");
  GpuSampler sampler(ALLOT_FAKE_NVML, clock_, Duration::millis(0));
  sampler.sample_now();
  EXPECT_TRUE(sampler.latest().empty());
  EXPECT_EQ(sampler.reason(), "nvmlInit_v2 failed: Driver Not Loaded");
}

TEST_F(GpuUtilizationTest, SamplerReadsUtilisationAndMemoryAtTheClocksTime) {
  write_gpus("GPU-aaaa 75 " + std::to_string(20 * kGiB) + " " + std::to_string(80 * kGiB) +
             " Fake H100\nGPU-bbbb 0 0 " + std::to_string(80 * kGiB) + " Fake H100\n");
  GpuSampler sampler(ALLOT_FAKE_NVML, clock_, Duration::millis(0));
  EXPECT_TRUE(sampler.latest().empty()) << "nothing before the first sample";
  sampler.sample_now();
  const Timestamp first = clock_.now();
  EXPECT_EQ(sampler.latest(),
            (std::vector<GpuReading>{{0, "GPU-aaaa", 0.75, 20 * kGiB, 80 * kGiB, first},
                                     {1, "GPU-bbbb", 0.0, 0, 80 * kGiB, first}}));
  EXPECT_EQ(sampler.reason(), "");

  // The next sample replaces the reading, at the clock's new time.
  write_gpus("GPU-aaaa 5 " + std::to_string(kGiB) + " " + std::to_string(80 * kGiB) +
             " Fake H100\nGPU-bbbb 100 " + std::to_string(79 * kGiB) + " " +
             std::to_string(80 * kGiB) + " Fake H100\n");
  clock_.advance(Duration::seconds(10));
  sampler.sample_now();
  const Timestamp second = clock_.now();
  EXPECT_EQ(sampler.latest(),
            (std::vector<GpuReading>{{0, "GPU-aaaa", 0.05, kGiB, 80 * kGiB, second},
                                     {1, "GPU-bbbb", 1.0, 79 * kGiB, 80 * kGiB, second}}));
}

TEST_F(GpuUtilizationTest, AGpuWhoseReadingFailsIsLeftOutAndNamed) {
  write_gpus("GPU-aaaa fail 0 80 Fake H100\nGPU-bbbb 40 8 80 Fake H100\n");
  GpuSampler sampler(ALLOT_FAKE_NVML, clock_, Duration::millis(0));
  sampler.sample_now();
  EXPECT_EQ(sampler.latest(), (std::vector<GpuReading>{{1, "GPU-bbbb", 0.4, 8, 80, clock_.now()}}));
  EXPECT_EQ(sampler.reason(), "GPU 0: nvmlDeviceGetUtilizationRates failed: Unknown Error");
}

TEST_F(GpuUtilizationTest, AbsentNvmlSamplesNothingAndSaysWhy) {
  GpuSampler sampler("libnvidia-ml-absent-for-tests.so.1", clock_, Duration::seconds(1));
  sampler.start();  // starts nothing: there is no NVML
  sampler.sample_now();
  EXPECT_TRUE(sampler.latest().empty());
  EXPECT_NE(sampler.reason().find("NVML not available"), std::string::npos) << sampler.reason();
}

TEST_F(GpuUtilizationTest, ExecutorAttributesEachGpuToThePodHoldingItUntilItExits) {
  write_gpus("GPU-aaaa 90 100 200 Fake H100\nGPU-bbbb 3 50 200 Fake H100\n");
  ExitRecorder exits;
  LocalExecutorOptions options;
  options.data_dir = scratch_.data_dir();
  options.sink = &exits;
  options.run_as_team_users = false;
  options.use_cgroups = false;
  options.gpus =
      std::vector<GpuDevice>{{0, "GPU-aaaa", "Fake H100", 0}, {1, "GPU-bbbb", "Fake H100", 1}};
  options.nvml_library = ALLOT_FAKE_NVML;
  options.gpu_sample_interval = Duration::millis(0);
  options.clock = &clock_;
  options.node_name = "this-host";
  LocalExecutor executor(options);

  PodLaunch pod = shell_pod(7, "research", "sleep 600");  // runs until stopped
  pod.node = "node-a";
  pod.gpus = {1};
  ASSERT_TRUE(executor.launch_pod(pod).ok());
  executor.gpu_sampler().sample_now();
  const Timestamp at = clock_.now();

  GpuUsageSample idle_gpu{"this-host", 0, "GPU-aaaa", "", WorkloadId(), -1, 0.9, 100, 200, at};
  const GpuUsageSample held_gpu{"node-a", 1,    "GPU-bbbb", "research", WorkloadId(7),
                                0,        0.03, 50,         200,        at};
  EXPECT_EQ(executor.gpu_usage(), (std::vector<GpuUsageSample>{idle_gpu, held_gpu}));

  executor.stop(WorkloadId(7), Duration::millis(0));
  ASSERT_TRUE(exits.wait_for(7, 0).has_value());
  GpuUsageSample released{"this-host", 1, "GPU-bbbb", "", WorkloadId(), -1, 0.03, 50, 200, at};
  EXPECT_EQ(executor.gpu_usage(), (std::vector<GpuUsageSample>{idle_gpu, released}));
}

}  // namespace
}  // namespace allot::local
