// CgroupV1Pool: the PodCgroupPool of cgroup v1 machines (and hybrid ones
// whose v2 tree has no controllers): one folder per pod in each of the
// freezer, pids and devices hierarchies.
//
// Contract (beyond pod_cgroup_pool.h's):
// - open(root) uses the hierarchies mounted at <parent of root>/freezer,
//   /pids and /devices (a v1 hierarchy has a `tasks` file) and makes the
//   pool's folder <hierarchy>/<basename of root> in each. The freezer is
//   required (it is what stops a whole pod, cgroup_signal.h); pids and
//   devices are used where present. Unavailable, with the reason, otherwise.
// - create(name, limits): <hierarchy>/<basename>/<name> in each; pids.max for
//   a non-zero max_pids, each device rule written to devices.deny; a limit the
//   pool cannot apply is kFailedPrecondition (ask limits_pids() and
//   applies_device_rules() first). CPU and memory limits are not applied
//   under cgroup v1 (local_executor.h says so once).
// Thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/local/pod_cgroup_pool.h"

namespace allot::local {

class CgroupV1Pool final : public PodCgroupPool {
 public:
  struct Hierarchy {
    std::string controller;  // "freezer", "pids", "devices"
    std::string pool_dir;    // <mount>/<controller>/<basename of root>
  };

  static std::unique_ptr<CgroupV1Pool> open(const std::string& root);

  [[nodiscard]] bool available() const override { return available_; }
  [[nodiscard]] const std::string& reason() const override { return reason_; }
  [[nodiscard]] std::string kind() const override;
  [[nodiscard]] bool limits_pids() const override { return available_ && has("pids"); }
  [[nodiscard]] bool applies_device_rules() const override { return available_ && has("devices"); }
  [[nodiscard]] bool has(std::string_view controller) const;

  Result<PodCgroups> create(const std::string& name, const PodCgroupLimits& limits) override;

  CgroupV1Pool(std::vector<Hierarchy> hierarchies, std::string reason);

 private:
  Status configure(const Hierarchy& hierarchy, const std::string& dir,
                   const PodCgroupLimits& limits) const;

  std::vector<Hierarchy> hierarchies_;
  bool available_ = false;
  std::string reason_;
};

}  // namespace allot::local
