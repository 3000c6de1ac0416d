#include "backends/local/cgroup_pool.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/errno_status.h"
#include "base/check.h"

namespace allot::local {
namespace {

constexpr int64_t kCpuPeriodUs = 100'000;
constexpr int64_t kMinCpuQuotaUs = 1'000;

bool read_file(const std::string& path, std::string& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out.clear();
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) out.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return n == 0;
}

Status write_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno_status("open " + path, errno);
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int err = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) return errno_status("write " + path, err);
  return {};
}

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

// Enables cpu and memory for the children of `dir` (a no-op when already on).
Status enable_controllers(const std::string& dir) {
  std::string enabled;
  if (read_file(dir + "/cgroup.subtree_control", enabled) && has_word(enabled, "cpu") &&
      has_word(enabled, "memory")) {
    return {};
  }
  return write_file(dir + "/cgroup.subtree_control", "+cpu +memory");
}

std::string parent_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Why cgroups cannot be used under `root`, or "" when they can (root is then ready).
std::string prepare(const std::string& root) {
  const std::string parent = parent_of(root);
  std::string controllers;
  if (!read_file(parent + "/cgroup.controllers", controllers)) {
    return parent + " is not a cgroup v2 folder (no cgroup.controllers)";
  }
  if (!has_word(controllers, "cpu") || !has_word(controllers, "memory")) {
    return "the cpu and memory controllers are not available in " + parent + " (it offers: " +
           (controllers.empty() ? std::string("none")
                                : controllers.substr(0, controllers.find('\n'))) +
           ")";
  }
  Status status = enable_controllers(parent);
  if (!status.ok()) return "cannot enable cpu and memory in " + parent + ": " + status.message();
  if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST) {
    return errno_status("cannot create " + root, errno).message();
  }
  status = enable_controllers(root);
  if (!status.ok()) return "cannot enable cpu and memory in " + root + ": " + status.message();
  return "";
}

}  // namespace

CgroupPool::CgroupPool(std::string root, bool available, std::string reason)
    : root_(std::move(root)), available_(available), reason_(std::move(reason)) {}

CgroupPool::CgroupPool(CgroupPool&& other) noexcept
    : root_(std::move(other.root_)),
      available_(other.available_),
      reason_(std::move(other.reason_)),
      pending_removal_(std::move(other.pending_removal_)) {
  other.available_ = false;
}

CgroupPool CgroupPool::open(std::string root) {
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  std::string why = prepare(root);
  const bool available = why.empty();
  return {std::move(root), available, std::move(why)};
}

CgroupPool CgroupPool::disabled(std::string reason) { return {"", false, std::move(reason)}; }

CgroupPool::~CgroupPool() {
  std::lock_guard lock(mu_);
  retry_pending_locked();
}

std::string CgroupPool::cpu_max(int64_t millicores) {
  const int64_t quota = std::max(kMinCpuQuotaUs, millicores * (kCpuPeriodUs / 1000));
  return std::to_string(quota) + " " + std::to_string(kCpuPeriodUs);
}

Result<int> CgroupPool::create(const std::string& name, const ResourceVector& resources) {
  ALLOT_CHECK(available_);
  {
    std::lock_guard lock(mu_);
    retry_pending_locked();
  }
  const std::string dir = root_ + "/" + name;
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return errno_status("create cgroup " + dir, errno);
  }
  if (resources.cpu_millis() > 0) {
    ALLOT_RETURN_IF_ERROR(write_file(dir + "/cpu.max", cpu_max(resources.cpu_millis())));
  }
  if (resources.memory_bytes() > 0) {
    ALLOT_RETURN_IF_ERROR(
        write_file(dir + "/memory.max", std::to_string(resources.memory_bytes())));
  }
  const std::string procs = dir + "/cgroup.procs";
  const int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno_status("open " + procs, errno);
  return fd;
}

void CgroupPool::remove(const std::string& name) {
  if (!available_) return;
  const std::string dir = root_ + "/" + name;
  [[maybe_unused]] const Status killed = write_file(dir + "/cgroup.kill", "1");
  std::lock_guard lock(mu_);
  pending_removal_.push_back(dir);
  retry_pending_locked();
}

void CgroupPool::retry_pending_locked() {
  std::erase_if(pending_removal_, [](const std::string& dir) {
    return ::rmdir(dir.c_str()) == 0 || errno == ENOENT;
  });
}

}  // namespace allot::local
