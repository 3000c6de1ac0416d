// Issue 10, isolation 10: another team's command lines were readable in
// /proc, and GPU isolation was only CUDA_VISIBLE_DEVICES. allotd now checks
// /proc's hidepid at start (a warning naming the host setting, or a remount
// when allowed), and each pod's cgroup v1 devices rules deny the machine's
// other /dev/nvidia<N>. No GPU on the test machine: the rules are checked as
// a pure function, as writes into a fake cgroup folder, and against the real
// kernel with device files made for the test (opening an allowed one says
// "No such device or address", a denied one "Operation not permitted").
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "backends/local/atomic_file.h"
#include "backends/local/cgroup_v1_pool.h"
#include "backends/local/gpu_device_rules.h"
#include "backends/local/local_executor.h"
#include "backends/local/proc_hidepid.h"
#include "base/logger.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ScratchDir;
using testing::shell_pod;

constexpr const char* kPlainProc =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "25 22 0:23 / /proc/sys/fs/binfmt_misc rw,relatime - autofs systemd-1 rw\n";
constexpr const char* kHiddenProc =
    "22 27 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc "
    "rw,hidepid=invisible,gid=27\n";

TEST(ProcHidepid, FindsTheProcMountAndWhetherItHidesOtherUsers) {
  const auto plain = parse_proc_mount(kPlainProc);
  ASSERT_TRUE(plain.ok()) << plain.status().to_string();
  EXPECT_FALSE(plain->hides_other_users);
  const auto hidden = parse_proc_mount(kHiddenProc);
  ASSERT_TRUE(hidden.ok());
  EXPECT_TRUE(hidden->hides_other_users) << hidden->options;
  EXPECT_TRUE(parse_proc_mount("1 0 0:5 / /proc rw - proc proc rw,hidepid=2\n")->hides_other_users);
  EXPECT_FALSE(
      parse_proc_mount("1 0 0:5 / /proc rw - proc proc rw,hidepid=0\n")->hides_other_users);
  // The last mount on /proc is the one in force.
  EXPECT_FALSE(parse_proc_mount(std::string(kHiddenProc) + kPlainProc)->hides_other_users);
  EXPECT_EQ(parse_proc_mount("1 0 0:5 / /sys rw - sysfs sysfs rw\n").status().code(),
            ErrorCode::kNotFound);
  EXPECT_TRUE(read_proc_mount().ok()) << "this machine's /proc must be found";
}

class ProcCheckTest : public ::testing::Test {
 protected:
  std::unique_ptr<LocalExecutor> start(const std::string& mountinfo_text) {
    const std::string mountinfo = scratch_.path() + "/mountinfo";
    std::ofstream(mountinfo) << mountinfo_text;
    LocalExecutorOptions options;
    options.data_dir = scratch_.data_dir();
    options.sink = &exits_;
    options.run_as_team_users = false;
    options.use_cgroups = false;
    options.gpus = std::vector<GpuDevice>{};
    options.proc_mountinfo = mountinfo;  // never remounted in tests: remount_proc_hidepid unset
    options.logger = &logger_;
    return std::make_unique<LocalExecutor>(options);
  }
  bool warned_about_hidepid() const {
    for (const LogEntry& entry : logger_.entries()) {
      const auto setting = entry.field("host_setting");
      if (entry.level == LogLevel::kWarn && setting.has_value() &&
          setting->find("hidepid=invisible") != std::string::npos &&
          entry.message.find("/proc") != std::string::npos) {
        return true;
      }
    }
    return false;
  }

  ScratchDir scratch_;
  ExitRecorder exits_;
  MemoryLogger logger_;
};

TEST_F(ProcCheckTest, AProcThatShowsEveryProcessIsAWarningNamingTheHostSetting) {
  const auto executor = start(kPlainProc);
  EXPECT_FALSE(executor->proc_hides_other_users());
  EXPECT_TRUE(warned_about_hidepid());
}

TEST_F(ProcCheckTest, AProcWithHidepidIsSilent) {
  const auto executor = start(kHiddenProc);
  EXPECT_TRUE(executor->proc_hides_other_users());
  EXPECT_FALSE(warned_about_hidepid());
}

TEST(GpuDeviceRules, DenyTheMachinesOtherGpusOnly) {
  EXPECT_EQ(gpu_deny_rules({0, 1, 2, 3}, {1, 3}),
            (std::vector<std::string>{"c 195:0 rwm", "c 195:2 rwm"}));
  EXPECT_EQ(gpu_deny_rules({0, 1}, {}), (std::vector<std::string>{"c 195:0 rwm", "c 195:1 rwm"}));
  EXPECT_EQ(gpu_deny_rules({}, {0}), std::vector<std::string>{});
  EXPECT_EQ(gpu_deny_rules({3, 0, 3}, {0}), std::vector<std::string>{"c 195:3 rwm"});
}

TEST(GpuDeviceRules, APodsIndicesBecomeTheDiscoveredMinors) {
  const std::vector<GpuDevice> machine = {{0, "GPU-a", "x", 4}, {1, "GPU-b", "x", -1}};
  EXPECT_EQ(pod_gpu_minors({0, 1, 7}, machine), (std::vector<int32_t>{4, 1, 7}));
}

TEST(GpuDeviceRules, TheMachinesGpuFilesAreFoundInDev) {
  if (!testing::is_root()) GTEST_SKIP() << "needs root to make device files";
  ScratchDir dev;
  for (const auto& [name, minor_number] : std::vector<std::pair<std::string, int>>{
           {"nvidia0", 0}, {"nvidia5", 5}, {"nvidiactl", 255}}) {
    ASSERT_EQ(::mknod((dev.path() + "/" + name).c_str(), S_IFCHR | 0666,
                      makedev(kNvidiaMajor, minor_number)),
              0);
  }
  ASSERT_EQ(::mknod((dev.path() + "/nvidia7").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
  std::ofstream(dev.path() + "/nvidia9") << "not a device";
  EXPECT_EQ(gpu_device_minors(dev.path()), (std::vector<int32_t>{0, 5}));
}

// The rules as the pool writes them, into a fake cgroup v1 tree (plain folders).
TEST(GpuDeviceRules, AreWrittenToTheDevicesCgroupOneRulePerWrite) {
  ScratchDir fake;
  const std::string mount = fake.path();
  for (const char* controller : {"freezer", "devices"}) {
    const std::string hierarchy = mount + "/" + controller;
    ASSERT_EQ(::mkdir(hierarchy.c_str(), 0755), 0);
    std::ofstream(hierarchy + "/tasks");
    ASSERT_EQ(::mkdir((hierarchy + "/allot").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((hierarchy + "/allot/pod").c_str(), 0755), 0);
    std::ofstream(hierarchy + "/allot/pod/cgroup.procs");
  }
  std::ofstream(mount + "/freezer/allot/freezer.state") << "THAWED\n";
  std::ofstream(mount + "/devices/allot/pod/devices.deny");
  const std::unique_ptr<CgroupV1Pool> pool = CgroupV1Pool::open(mount + "/allot");
  ASSERT_TRUE(pool->available()) << pool->reason();
  ASSERT_TRUE(pool->applies_device_rules());
  EXPECT_FALSE(pool->limits_pids());
  PodCgroupLimits limits;
  limits.device_rules = gpu_deny_rules({0, 1, 2}, {1});
  Result<PodCgroups> made = pool->create("pod", limits);
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  for (const int fd : made->procs_fds) ::close(fd);
  EXPECT_EQ(made->dirs,
            (std::vector<std::string>{mount + "/freezer/allot/pod", mount + "/devices/allot/pod"}));
  EXPECT_EQ(read_whole_file(mount + "/devices/allot/pod/devices.deny", 4096).value(),
            "c 195:0 rwm\nc 195:2 rwm\n");
  limits.max_pids = 10;
  EXPECT_EQ(pool->create("pod", limits).status().code(), ErrorCode::kFailedPrecondition);
}

// The real kernel: a pod holding GPU 1 of four can open only /dev/nvidia1.
TEST(GpuDeviceRules, APodCannotOpenAnotherPodsGpu) {
  if (!testing::is_root()) GTEST_SKIP() << "needs root for cgroups and device files";
  ScratchDir scratch;
  const std::string dev = scratch.path() + "/dev";
  ASSERT_EQ(::mkdir(dev.c_str(), 0755), 0);
  for (int minor_number = 0; minor_number < 4; ++minor_number) {
    ASSERT_EQ(::mknod((dev + "/nvidia" + std::to_string(minor_number)).c_str(), S_IFCHR | 0666,
                      makedev(kNvidiaMajor, minor_number)),
              0);
  }
  const std::string base = "allot-test-gpu-" + std::to_string(::getpid());
  ExitRecorder exits;
  LocalExecutorOptions options;
  options.data_dir = scratch.data_dir();
  options.sink = &exits;
  options.run_as_team_users = false;
  options.cgroup_root = "/sys/fs/cgroup/" + base;
  options.gpus = std::vector<GpuDevice>{};
  options.dev_dir = dev;
  std::string log;
  {
    LocalExecutor executor(options);
    EXPECT_EQ(executor.gpu_minors(), (std::vector<int32_t>{0, 1, 2, 3}));
    if (!executor.restricts_gpu_devices()) {
      std::printf("no cgroup v1 devices controller here: %s %s\n", executor.cgroups_kind().c_str(),
                  executor.cgroups_reason().c_str());
      GTEST_SKIP() << "no cgroup v1 devices controller: " << executor.cgroups_kind();
    }
    PodLaunch pod = shell_pod(
        51, "a",
        "for n in 0 1 2 3; do (cat < " + dev + "/nvidia$n) 2>&1 | sed \"s|.*: |$n: |\"; done");
    pod.gpus = {1};
    ASSERT_TRUE(executor.launch_pod(pod).ok());
    ASSERT_TRUE(exits.wait_for(51, 0).has_value());
    log = executor.read_log({WorkloadId(51), 0}, 0, 4096).value();
  }
  for (const char* controller : {"freezer", "pids", "devices"}) {
    ::rmdir(("/sys/fs/cgroup/" + std::string(controller) + "/" + base).c_str());
  }
  EXPECT_EQ(log,
            "0: Operation not permitted\n1: No such device or address\n"
            "2: Operation not permitted\n3: Operation not permitted\n");
}

}  // namespace
}  // namespace allot::local
