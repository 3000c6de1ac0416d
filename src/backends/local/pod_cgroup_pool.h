// PodCgroupPool: the cgroups of each pod, whatever the machine offers. Two
// implementations: CgroupPool (cgroup v2: cpu.max, memory.max, pids.max,
// cgroup.kill) and CgroupV1Pool (cgroup v1: a freezer to kill the whole pod,
// pids.max, the device rules of its GPUs). open_pod_cgroups() picks one.
//
// Contract:
// - available() says whether create() may be called; reason() says why not
//   ("" when available); kind() names what is used.
// - create(name, limits) makes the pod's folders with its limits and returns
//   them with an open, close-on-exec cgroup.procs per folder for the child to
//   join before exec (process_spawn.h); the caller closes the descriptors.
//   On error nothing of the pod is left behind.
// - remove(dirs) removes folders whose processes are gone (signal_pod()
//   kills them first); a folder still busy is retried on later calls and at
//   destruction.
// Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"

namespace allot::local {

struct PodCgroupLimits {
  ResourceVector resources;               // cpu.max and memory.max (cgroup v2)
  int64_t max_pids = 0;                   // pids.max (threads count too); 0: no limit
  std::vector<std::string> device_rules;  // devices.deny lines (cgroup v1; device_rules.h)
};

struct PodCgroups {
  std::vector<std::string> dirs;
  std::vector<int> procs_fds;  // one per folder
};

class PodCgroupPool {
 public:
  virtual ~PodCgroupPool();
  PodCgroupPool() = default;
  PodCgroupPool(const PodCgroupPool&) = delete;
  PodCgroupPool& operator=(const PodCgroupPool&) = delete;

  [[nodiscard]] virtual bool available() const = 0;
  [[nodiscard]] virtual const std::string& reason() const = 0;
  [[nodiscard]] virtual std::string kind() const = 0;
  [[nodiscard]] virtual bool limits_pids() const = 0;
  [[nodiscard]] virtual bool applies_device_rules() const = 0;
  // REQUIRES: available().
  virtual Result<PodCgroups> create(const std::string& name, const PodCgroupLimits& limits) = 0;
  void remove(const std::vector<std::string>& dirs);

 protected:
  // Undoes a partial create(): closes the descriptors, removes the folders.
  static void discard(PodCgroups& made);

 private:
  void retry_pending_locked();

  std::mutex mu_;
  std::vector<std::string> pending_removal_;  // guarded by mu_
};

// cgroup v2 under `root` when its parent offers it, else cgroup v1
// hierarchies beside it (<parent of root>/<controller>/<basename of root>).
std::unique_ptr<PodCgroupPool> open_pod_cgroups(const std::string& root);

}  // namespace allot::local
