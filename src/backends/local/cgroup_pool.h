// CgroupPool: one cgroup v2 per pod under a root folder, with the pod's CPU
// and memory limits, where the machine allows it.
//
// Contract:
// - open(root) probes once: the parent of `root` must be a cgroup v2 folder
//   (it has cgroup.controllers) offering the cpu and memory controllers; they
//   are enabled in the parent's and in root's cgroup.subtree_control. When
//   anything is missing or refused, the pool is unavailable and reason() says
//   why; create() must not be called then.
// - create(name, resources) makes <root>/<name> with cpu.max (millicores ->
//   "quota 100000") and memory.max (bytes) for the non-zero resources, and
//   returns an open, close-on-exec descriptor of its cgroup.procs, for the
//   child to join before exec (process_spawn.h). The caller closes it.
// - remove(name) kills whatever is left in the cgroup (cgroup.kill, Linux
//   5.14+) and removes its folder; a folder still busy is retried on later
//   calls and at destruction.
// Thread-safe.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"

namespace allot::local {

class CgroupPool {
 public:
  static CgroupPool open(std::string root);
  // An unavailable pool (cgroups not wanted).
  static CgroupPool disabled(std::string reason);
  ~CgroupPool();
  CgroupPool(CgroupPool&& other) noexcept;
  CgroupPool& operator=(CgroupPool&&) = delete;
  CgroupPool(const CgroupPool&) = delete;
  CgroupPool& operator=(const CgroupPool&) = delete;

  [[nodiscard]] bool available() const { return available_; }
  [[nodiscard]] const std::string& reason() const { return reason_; }
  [[nodiscard]] const std::string& root() const { return root_; }

  // REQUIRES: available().
  Result<int> create(const std::string& name, const ResourceVector& resources);
  void remove(const std::string& name);

  // "quota period" for cpu.max from millicores (at least the kernel's 1 ms quota).
  static std::string cpu_max(int64_t millicores);

 private:
  CgroupPool(std::string root, bool available, std::string reason);
  void retry_pending_locked();

  std::string root_;
  bool available_ = false;
  std::string reason_;
  std::mutex mu_;
  std::vector<std::string> pending_removal_;  // guarded by mu_
};

}  // namespace allot::local
