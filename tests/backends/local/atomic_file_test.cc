// write_file_atomically() for this boot only (Survives::kProcessCrash, the
// pod pid files) and signal_cgroup() on an empty cgroup: what a pod's start
// and exit pay without waiting for the disk or freezing a cgroup.
#include "backends/local/atomic_file.h"

#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/cgroup_signal.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ScratchDir;

std::string contents(const std::string& path) {
  const Result<std::string> text = read_whole_file(path, 4096);
  return text.ok() ? *text : "<" + text.status().to_string() + ">";
}

TEST(AtomicFile, AFileForThisBootOnlyIsReplacedWholeWithItsMode) {
  ScratchDir scratch;
  const std::string path = scratch.path() + "/1-0.pid";
  ASSERT_TRUE(write_file_atomically(path, "old\n", 0644, Survives::kProcessCrash).ok());
  ASSERT_TRUE(write_file_atomically(path, "12 12 345\n", 0600, Survives::kProcessCrash).ok());
  EXPECT_EQ(contents(path), "12 12 345\n");
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600U);
  EXPECT_NE(::access((path + ".tmp").c_str(), F_OK), 0);  // no temporary file left
}

TEST(AtomicFile, AFileForThisBootOnlyIsNotWrittenThroughASymlink) {
  ScratchDir scratch;
  const std::string target = scratch.path() + "/target";
  std::ofstream(target) << "kept\n";
  const std::string path = scratch.path() + "/1-0.pid";
  ASSERT_EQ(::symlink(target.c_str(), (path + ".tmp").c_str()), 0);
  ASSERT_TRUE(write_file_atomically(path, "new\n", 0600, Survives::kProcessCrash).ok());
  EXPECT_EQ(contents(target), "kept\n");
  EXPECT_EQ(contents(path), "new\n");
}

// A v1 freezer folder that lists no process is neither frozen nor thawed:
// nothing in it can fork, and each freeze patches the kernel on every CPU.
TEST(CgroupSignal, AnEmptyCgroupIsLeftAsItIs) {
  ScratchDir scratch;
  const std::string dir = scratch.path() + "/freezer";
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  std::ofstream(dir + "/cgroup.procs") << "";
  std::ofstream(dir + "/freezer.state") << "x";
  EXPECT_EQ(signal_cgroup(dir, SIGKILL, Duration::millis(50)), 0);
  EXPECT_EQ(contents(dir + "/freezer.state"), "x");
  EXPECT_TRUE(cgroup_empty(dir));
}

}  // namespace
}  // namespace allot::local
