#include "backends/local/cgroup_pool.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "backends/local/local_executor.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ScratchDir;
using testing::shell_pod;

TEST(CgroupPool, CpuMaxIsAQuotaPerTenthOfASecond) {
  EXPECT_EQ(CgroupPool::cpu_max(1000), "100000 100000");
  EXPECT_EQ(CgroupPool::cpu_max(500), "50000 100000");
  EXPECT_EQ(CgroupPool::cpu_max(2500), "250000 100000");
  EXPECT_EQ(CgroupPool::cpu_max(1), "1000 100000");  // the kernel's smallest quota
}

TEST(CgroupPool, RootOutsideACgroupV2FolderIsUnavailableWithAReason) {
  ScratchDir scratch;
  const std::unique_ptr<CgroupPool> pool = CgroupPool::open(scratch.path() + "/allot");
  EXPECT_FALSE(pool->available());
  EXPECT_NE(pool->reason().find("is not a cgroup v2 folder"), std::string::npos) << pool->reason();
}

// Runs only where cgroup v2 with cpu and memory can be delegated (a Debian 12
// machine with systemd); elsewhere it says why it was skipped.
TEST(CgroupPool, PodRunsInItsOwnCgroupWithItsLimits) {
  if (!testing::is_root()) GTEST_SKIP() << "needs root to create cgroups";
  const std::string root = "/sys/fs/cgroup/allot-test-" + std::to_string(::getpid());
  {
    const std::unique_ptr<CgroupPool> probe = CgroupPool::open(root);
    if (!probe->available()) GTEST_SKIP() << "cgroups v2 not available: " << probe->reason();
  }
  ScratchDir scratch;
  ExitRecorder exits;
  LocalExecutorOptions options;
  options.data_dir = scratch.data_dir();
  options.sink = &exits;
  options.run_as_team_users = false;
  options.cgroup_root = root;
  options.gpus = std::vector<GpuDevice>{};
  {
    LocalExecutor executor(options);
    ASSERT_TRUE(executor.cgroups_enabled()) << executor.cgroups_reason();
    PodLaunch pod = shell_pod(
        21, "a",
        "cg=$(cut -d: -f3 /proc/self/cgroup); echo \"$cg\"; cat /sys/fs/cgroup$cg/cpu.max "
        "/sys/fs/cgroup$cg/memory.max");
    pod.resources = ResourceVector(0, 500, int64_t{256} << 20);
    ASSERT_TRUE(executor.launch_pod(pod).ok());
    ASSERT_TRUE(exits.wait_for(21, 0).has_value());
    const std::string log = executor.read_log({WorkloadId(21), 0}, 0, 4096).value();
    const std::string prefix = "/allot-test-" + std::to_string(::getpid()) + "/";
    ASSERT_TRUE(log.starts_with(prefix)) << log;
    const std::string name = log.substr(prefix.size(), log.find('\n') - prefix.size());
    EXPECT_TRUE(name.ends_with("-21-0")) << log;
    EXPECT_EQ(log.substr(log.find('\n') + 1), "50000 100000\n268435456\n");
    EXPECT_NE(::access((root + "/" + name).c_str(), F_OK), 0);  // removed after the exit
  }
  ::rmdir(root.c_str());
}

}  // namespace
}  // namespace allot::local
