// CgroupPool: the PodCgroupPool of cgroup v2, one cgroup per pod under a root
// folder, with the pod's CPU, memory and process-count limits.
//
// Contract (beyond pod_cgroup_pool.h's):
// - open(root) probes once: the parent of `root` must be a cgroup v2 folder
//   (it has cgroup.controllers) offering the cpu and memory controllers; they
//   (and pids, where offered) are enabled in the parent's and in root's
//   cgroup.subtree_control. When anything is missing or refused, the pool is
//   unavailable and reason() says why.
// - create(name, limits) makes <root>/<name> with cpu.max (millicores ->
//   "quota 100000") and memory.max (bytes) for the non-zero resources and
//   pids.max for a non-zero max_pids (kFailedPrecondition when the pids
//   controller is missing). Device rules need eBPF under cgroup v2: they are
//   not applied (local_executor.h says so once).
// - Killing uses cgroup.kill (Linux 5.14+, cgroup_signal.h).
// Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backends/local/pod_cgroup_pool.h"
#include "base/quantity.h"
#include "base/result.h"

namespace allot::local {

class CgroupPool final : public PodCgroupPool {
 public:
  static std::unique_ptr<CgroupPool> open(std::string root);
  // An unavailable pool (cgroups not wanted, or none usable).
  static std::unique_ptr<CgroupPool> disabled(std::string reason);

  [[nodiscard]] bool available() const override { return available_; }
  [[nodiscard]] const std::string& reason() const override { return reason_; }
  [[nodiscard]] std::string kind() const override { return available_ ? "cgroup v2" : "none"; }
  [[nodiscard]] bool limits_pids() const override { return available_ && has_pids_; }
  [[nodiscard]] bool applies_device_rules() const override { return false; }
  [[nodiscard]] const std::string& root() const { return root_; }

  Result<PodCgroups> create(const std::string& name, const PodCgroupLimits& limits) override;

  // "quota period" for cpu.max from millicores (at least the kernel's 1 ms quota).
  static std::string cpu_max(int64_t millicores);

  CgroupPool(std::string root, bool available, std::string reason, bool has_pids);

 private:
  std::string root_;
  bool available_ = false;
  std::string reason_;
  bool has_pids_ = false;
};

}  // namespace allot::local
