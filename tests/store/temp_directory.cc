#include "store/temp_directory.h"

#include <system_error>

#include <stdlib.h>

#include "base/check.h"

namespace allot::store_test {

TempDirectory::TempDirectory() {
  std::string pattern = (std::filesystem::temp_directory_path() / "allot-store-XXXXXX").string();
  // mkdtemp: unique even when several test processes run at once.
  ALLOT_CHECK(mkdtemp(pattern.data()) != nullptr);
  path_ = pattern;
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDirectory::file(std::string_view name) const { return (path_ / name).string(); }

}  // namespace allot::store_test
