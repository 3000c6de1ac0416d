#include "app/host_accounts.h"

#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

#include "backends/local/account_removal.h"
#include "backends/local/data_layout.h"

namespace allot::app {
namespace {

void print_list(const char* what, const std::vector<std::string>& names, std::FILE* out) {
  for (const std::string& name : names) std::fprintf(out, "%s %s\n", what, name.c_str());
}

}  // namespace

int remove_host_accounts(const std::string& data_dir) {
  if (::geteuid() != 0) {
    std::fprintf(stderr, "allotd: --remove-host-accounts needs root (it runs userdel/groupdel)\n");
    return 1;
  }
  const local::DataLayout layout(data_dir, false);
  const Result<local::AccountRemoval> removal = local::remove_recorded_accounts(layout);
  if (!removal.ok()) {
    std::fprintf(stderr, "allotd: nothing removed: %s\n", removal.status().to_string().c_str());
    return 1;
  }
  print_list("removed", removal->removed, stdout);
  print_list("absent", removal->absent, stdout);
  print_list("kept", removal->kept, stdout);
  print_list("failed", removal->failed, stderr);
  std::fprintf(stdout, "%zu removed, %zu already absent, %zu kept, %zu failed (%s)\n",
               removal->removed.size(), removal->absent.size(), removal->kept.size(),
               removal->failed.size(), layout.root().c_str());
  return removal->failed.empty() ? 0 : 1;
}

}  // namespace allot::app
