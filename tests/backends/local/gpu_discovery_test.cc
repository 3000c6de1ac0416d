#include "backends/local/gpu_discovery.h"

#include <gtest/gtest.h>

namespace allot::local {
namespace {

TEST(GpuDiscovery, AbsentNvmlGivesNoGpusAndSaysWhy) {
  const GpuDiscovery found = discover_gpus("libnvidia-ml-absent-for-tests.so.1");
  EXPECT_TRUE(found.devices.empty());
  EXPECT_NE(found.reason.find("NVML not available"), std::string::npos) << found.reason;
}

TEST(GpuDiscovery, MachineDiscoveryEitherListsGpusByUuidOrSaysWhyNot) {
  const GpuDiscovery found = discover_gpus();
  if (found.devices.empty()) {
    EXPECT_FALSE(found.reason.empty());
    return;
  }
  EXPECT_TRUE(found.reason.empty()) << found.reason;
  for (size_t i = 0; i < found.devices.size(); ++i) {
    EXPECT_EQ(found.devices[i].index, static_cast<int32_t>(i));
    EXPECT_EQ(found.devices[i].uuid.rfind("GPU-", 0), 0u) << found.devices[i].uuid;
  }
}

}  // namespace
}  // namespace allot::local
