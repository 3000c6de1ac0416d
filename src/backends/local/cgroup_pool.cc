#include "backends/local/cgroup_pool.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/atomic_file.h"
#include "backends/local/cgroup_files.h"
#include "backends/local/errno_status.h"
#include "base/check.h"

namespace allot::local {
namespace {

constexpr int64_t kCpuPeriodUs = 100'000;
constexpr int64_t kMinCpuQuotaUs = 1'000;

bool has_word(const std::string& text, std::string_view word) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find_first_of(" \n", start);
    if (end == std::string::npos) end = text.size();
    if (std::string_view(text).substr(start, end - start) == word) return true;
    start = end + 1;
  }
  return false;
}

// Enables cpu and memory (and pids, best effort) for the children of `dir`.
Status enable_controllers(const std::string& dir, bool with_pids) {
  std::string enabled;
  if (with_pids &&
      !(read_small_file(dir + "/cgroup.subtree_control", enabled) && has_word(enabled, "pids"))) {
    [[maybe_unused]] const Status pids =
        write_control_file(dir + "/cgroup.subtree_control", "+pids");
  }
  if (read_small_file(dir + "/cgroup.subtree_control", enabled) && has_word(enabled, "cpu") &&
      has_word(enabled, "memory")) {
    return {};
  }
  return write_control_file(dir + "/cgroup.subtree_control", "+cpu +memory");
}

// Why cgroups cannot be used under `root`, or "" when they can (root is then ready).
std::string prepare(const std::string& root, bool& has_pids) {
  const std::string parent = parent_folder(root);
  std::string controllers;
  if (!read_small_file(parent + "/cgroup.controllers", controllers)) {
    return parent + " is not a cgroup v2 folder (no cgroup.controllers)";
  }
  if (!has_word(controllers, "cpu") || !has_word(controllers, "memory")) {
    return "the cpu and memory controllers are not available in " + parent + " (it offers: " +
           (controllers.empty() ? std::string("none")
                                : controllers.substr(0, controllers.find('\n'))) +
           ")";
  }
  has_pids = has_word(controllers, "pids");
  Status status = enable_controllers(parent, has_pids);
  if (!status.ok()) return "cannot enable cpu and memory in " + parent + ": " + status.message();
  if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST) {
    return errno_status("cannot create " + root, errno).message();
  }
  status = enable_controllers(root, has_pids);
  if (!status.ok()) return "cannot enable cpu and memory in " + root + ": " + status.message();
  return "";
}

}  // namespace

CgroupPool::CgroupPool(std::string root, bool available, std::string reason, bool has_pids)
    : root_(std::move(root)),
      available_(available),
      reason_(std::move(reason)),
      has_pids_(has_pids) {}

std::unique_ptr<CgroupPool> CgroupPool::open(std::string root) {
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  bool has_pids = false;
  std::string why = prepare(root, has_pids);
  const bool available = why.empty();
  return std::make_unique<CgroupPool>(std::move(root), available, std::move(why), has_pids);
}

std::unique_ptr<CgroupPool> CgroupPool::disabled(std::string reason) {
  return std::make_unique<CgroupPool>("", false, std::move(reason), false);
}

std::string CgroupPool::cpu_max(int64_t millicores) {
  const int64_t quota = std::max(kMinCpuQuotaUs, millicores * (kCpuPeriodUs / 1000));
  return std::to_string(quota) + " " + std::to_string(kCpuPeriodUs);
}

Result<PodCgroups> CgroupPool::create(const std::string& name, const PodCgroupLimits& limits) {
  ALLOT_CHECK(available_);
  const std::string dir = root_ + "/" + name;
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return errno_status("create cgroup " + dir, errno);
  }
  PodCgroups made{{dir}, {}};
  Status status;
  if (limits.resources.cpu_millis() > 0) {
    status = write_control_file(dir + "/cpu.max", cpu_max(limits.resources.cpu_millis()));
  }
  if (status.ok() && limits.resources.memory_bytes() > 0) {
    status =
        write_control_file(dir + "/memory.max", std::to_string(limits.resources.memory_bytes()));
  }
  if (status.ok() && limits.max_pids > 0) {
    status = has_pids_
                 ? write_control_file(dir + "/pids.max", std::to_string(limits.max_pids))
                 : Status(ErrorCode::kFailedPrecondition,
                          "pids.max wanted but the pids controller is not offered in " + root_);
  }
  Result<int> fd = status.ok() ? open_procs_file(dir) : Result<int>(status);
  if (!fd.ok()) {
    discard(made);
    return fd.status();
  }
  made.procs_fds.push_back(*fd);
  return made;
}

}  // namespace allot::local
