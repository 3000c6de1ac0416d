#include "backends/local/cgroup_v1_pool.h"

#include <cerrno>
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

constexpr const char* kControllers[] = {"freezer", "pids", "devices"};

}  // namespace

CgroupV1Pool::CgroupV1Pool(std::vector<Hierarchy> hierarchies, std::string reason)
    : hierarchies_(std::move(hierarchies)), reason_(std::move(reason)) {
  available_ = reason_.empty() && has("freezer");
}

std::unique_ptr<CgroupV1Pool> CgroupV1Pool::open(const std::string& root) {
  std::string trimmed = root;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  const std::string mount = parent_folder(trimmed);
  const std::string base = trimmed.substr(trimmed.find_last_of('/') + 1);
  std::vector<Hierarchy> found;
  std::string freezer_problem;
  for (const char* controller : kControllers) {
    std::string hierarchy = mount;
    hierarchy += "/";
    hierarchy += controller;
    std::string pool_dir = hierarchy;
    pool_dir += "/";
    pool_dir += base;
    const bool is_v1 = file_exists(hierarchy + "/tasks");
    const bool made = is_v1 && (::mkdir(pool_dir.c_str(), 0755) == 0 || errno == EEXIST);
    const int err = errno;
    const bool is_freezer = std::string_view(controller) == "freezer";
    if (made && (!is_freezer || file_exists(pool_dir + "/freezer.state"))) {
      found.push_back({controller, pool_dir});
    } else if (is_freezer) {
      freezer_problem = !is_v1  ? hierarchy + " is not a cgroup v1 freezer hierarchy"
                        : !made ? errno_status("cannot create " + pool_dir, err).message()
                                : pool_dir + " has no freezer.state";
    }
  }
  return std::make_unique<CgroupV1Pool>(std::move(found), std::move(freezer_problem));
}

std::string CgroupV1Pool::kind() const {
  if (!available_) return "none";
  std::string out = "cgroup v1 (";
  for (size_t i = 0; i < hierarchies_.size(); ++i) {
    out += (i == 0 ? "" : ", ") + hierarchies_[i].controller;
  }
  return out + ")";
}

bool CgroupV1Pool::has(std::string_view controller) const {
  for (const Hierarchy& hierarchy : hierarchies_) {
    if (hierarchy.controller == controller) return true;
  }
  return false;
}

Status CgroupV1Pool::configure(const Hierarchy& hierarchy, const std::string& dir,
                               const PodCgroupLimits& limits) const {
  if (hierarchy.controller == "pids" && limits.max_pids > 0) {
    return write_control_file(dir + "/pids.max", std::to_string(limits.max_pids));
  }
  if (hierarchy.controller == "devices" && !limits.device_rules.empty()) {
    // One rule per write(): the kernel reads one rule from each.
    const std::string path = dir + "/devices.deny";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno_status("open " + path, errno);
    for (const std::string& rule : limits.device_rules) {
      const std::string line = rule + "\n";
      if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
        const int err = errno;
        std::string what = "write '";
        what += rule;
        what += "' to ";
        what += path;
        Status status = errno_status(what, err);
        ::close(fd);
        return status;
      }
    }
    ::close(fd);
  }
  return {};
}

Result<PodCgroups> CgroupV1Pool::create(const std::string& name, const PodCgroupLimits& limits) {
  ALLOT_CHECK(available_);
  if (limits.max_pids > 0 && !has("pids")) {
    return Status(ErrorCode::kFailedPrecondition,
                  "pids.max wanted but there is no cgroup v1 pids hierarchy");
  }
  if (!limits.device_rules.empty() && !has("devices")) {
    return Status(ErrorCode::kFailedPrecondition,
                  "device rules wanted but there is no cgroup v1 devices hierarchy");
  }
  PodCgroups made;
  for (const Hierarchy& hierarchy : hierarchies_) {
    const std::string dir = hierarchy.pool_dir + "/" + name;
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      const Status status = errno_status("create cgroup " + dir, errno);
      discard(made);
      return status;
    }
    made.dirs.push_back(dir);
    Status status = configure(hierarchy, dir, limits);
    Result<int> fd = status.ok() ? open_procs_file(dir) : Result<int>(status);
    if (!fd.ok()) {
      discard(made);
      return fd.status();
    }
    made.procs_fds.push_back(*fd);
  }
  return made;
}

}  // namespace allot::local
