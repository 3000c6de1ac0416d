// DataLayout: where the local backend keeps a workload's folders.
#include "backends/local/data_layout.h"

#include <string>

#include <gtest/gtest.h>

namespace allot::local {
namespace {

std::string last_component(const std::string& path) { return path.substr(path.rfind('/') + 1); }

TEST(DataLayout, AWorkFolderIsNamedAfterTheWorkloadAndItsId) {
  const DataLayout layout("/data", false);

  EXPECT_EQ(layout.work_dir("ml", "train", 42), "/data/work/ml/train-42");
}

// Issue 10, clear errors 13: a 253-character name (valid, as in Kubernetes)
// failed at launch with ENAMETOOLONG.
TEST(DataLayout, TheLongestValidNameStillFitsOneFolderName) {
  const DataLayout layout("/data", false);
  const std::string name(253, 'a');

  const std::string folder =
      last_component(layout.work_dir("ml", name, 18'446'744'073'709'551'614U));

  EXPECT_LE(folder.size(), 255u);
  EXPECT_TRUE(folder.ends_with("-18446744073709551614")) << folder;
  EXPECT_NE(layout.work_dir("ml", name, 1), layout.work_dir("ml", name, 2));
}

}  // namespace
}  // namespace allot::local
