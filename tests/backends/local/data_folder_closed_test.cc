// Issue 10, isolation 6: the data folder and everything allotd makes in it
// are closed to pods (0700 / 0600, root's), whatever allotd's umask, except
// the way to the pods' own folders (0711: traversable, not listable) and
// those folders themselves; and pods keep working under a restrictive umask.
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/local_executor.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ScratchDir;
using testing::ScratchTeams;
using testing::ScratchUsers;
using testing::shell_pod;

// Sets the process's umask for the test's length.
class UmaskScope {
 public:
  explicit UmaskScope(mode_t mask) : previous_(::umask(mask)) {}
  ~UmaskScope() { ::umask(previous_); }
  UmaskScope(const UmaskScope&) = delete;
  UmaskScope& operator=(const UmaskScope&) = delete;

 private:
  mode_t previous_;
};

class DataFolderClosedTest : public ::testing::TestWithParam<mode_t> {};

TEST_P(DataFolderClosedTest, OnlyThePodsOwnFoldersAreOpenToThemWhateverTheUmask) {
  if (!testing::is_root()) GTEST_SKIP() << "needs root: pods run as team users";
  ScratchDir scratch;
  ScratchTeams teams;
  ScratchUsers users;
  ExitRecorder exits;
  const UmaskScope umask_scope(GetParam());
  const std::string data = scratch.path() + "/srv/allot/data";  // missing parents too
  LocalExecutorOptions options;
  options.data_dir = data;
  options.sink = &exits;
  options.use_cgroups = false;
  options.gpus = std::vector<GpuDevice>{};
  auto executor = std::make_unique<LocalExecutor>(options);
  const std::string team = teams.make("closed");
  PodLaunch pod = shell_pod(41, team,
                            "echo a > \"$HOME/h\" && echo b > \"$ALLOT_SHARED_DIR/s\" && "
                            "echo c > w && echo d > \"$CKPT/k\" && cat \"$HOME/h\" w");
  const std::string checkpoints = data + "/teams/" + team + "/checkpoints";
  pod.checkpoint_dir = checkpoints + "/ns/job-41";
  ASSERT_EQ(executor->checkpoint_dir({TeamId(team), "ns", "job", WorkloadId(41)}),
            pod.checkpoint_dir);
  pod.env["CKPT"] = pod.checkpoint_dir;
  ASSERT_TRUE(executor->launch_pod(pod).ok());
  const std::optional<PodExit> exit = exits.wait_for(41, 0);
  ASSERT_TRUE(exit.has_value());
  const std::string log = executor->read_log({WorkloadId(41), 0}, 0, 4096).value();
  EXPECT_TRUE(exit->succeeded()) << log;
  EXPECT_EQ(log, "a\nc\n");
  // A pod of a known user: its home in the team's folder.
  const std::string user_account = users.add(team, "ana");
  PodLaunch user_pod = shell_pod(42, team, "echo u > \"$HOME/h\" && cat \"$HOME/h\"");
  user_pod.user = "ana";
  ASSERT_TRUE(executor->launch_pod(user_pod).ok());
  const std::optional<PodExit> user_exit = exits.wait_for(42, 0);
  ASSERT_TRUE(user_exit.has_value());
  EXPECT_TRUE(user_exit->succeeded()) << executor->read_log({WorkloadId(42), 0}, 0, 4096).value();
  executor.reset();

  // The way to the pods' folders: traversable, not listable; the pods' own: their modes.
  const std::string account = team_account_name(team);
  const std::map<std::string, mode_t> open_to_pods = {
      {scratch.path() + "/srv", 0711},
      {scratch.path() + "/srv/allot", 0711},
      {data, 0711},
      {data + "/teams", 0711},
      {data + "/teams/" + team, 0710},  // the team's group only
      {data + "/teams/" + team + "/shared", 02770},
      {data + "/teams/" + team + "/homes", 0710},
      {data + "/teams/" + team + "/homes/" + user_account, 0700},
      {data + "/homes", 0711},
      {data + "/homes/" + account, 0700},
      {data + "/work", 0711},
      {data + "/work/ns", 0711},
      {data + "/work/ns/job-41", 0770},
      {data + "/work/ns/job-42", 0770},
      {checkpoints, 0750},  // in the team's folder: listable by the team's group
      {checkpoints + "/ns", 0750},
      {checkpoints + "/ns/job-41", 0770},
      {data + "/logs/41/pod-0.log", 0640},  // in a closed folder: the team's group, for allotd
      {data + "/logs/42/pod-0.log", 0640},
  };
  for (const auto& [path, mode] : open_to_pods) {
    struct stat info {};
    ASSERT_EQ(::lstat(path.c_str(), &info), 0) << path;
    EXPECT_EQ(info.st_mode & 07777, mode) << path;
  }
  // Everything else allotd made is its own alone.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data)) {
    const std::string path = entry.path().string();
    if (open_to_pods.contains(path)) continue;
    const bool inside_pod_folder =
        path.starts_with(data + "/teams/" + team + "/shared/") ||
        path.starts_with(data + "/homes/" + account + "/") ||
        path.starts_with(data + "/teams/" + team + "/homes/" + user_account + "/") ||
        path.starts_with(data + "/work/ns/job-41/") ||
        path.starts_with(data + "/work/ns/job-42/") ||
        path.starts_with(checkpoints + "/ns/job-41/");
    if (inside_pod_folder) continue;
    struct stat info {};
    ASSERT_EQ(::lstat(path.c_str(), &info), 0) << path;
    EXPECT_EQ(info.st_mode & 0077, 0u)
        << path << " is open to pods: " << std::oct << (info.st_mode & 07777);
    EXPECT_EQ(info.st_uid, 0u) << path;
  }
}

INSTANTIATE_TEST_SUITE_P(Umasks, DataFolderClosedTest, ::testing::Values(mode_t{077}, mode_t{0}),
                         [](const ::testing::TestParamInfo<mode_t>& param) {
                           return param.param == 0 ? std::string("Permissive000")
                                                   : std::string("Restrictive077");
                         });

}  // namespace
}  // namespace allot::local
