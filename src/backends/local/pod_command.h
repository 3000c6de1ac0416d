// What a pod process runs: its argv and its exact environment.
//
// Contract (pure functions, no I/O):
// - pod_argv(): the pod's command as given (no shell).
// - pod_env(): a minimal base (PATH, HOME, USER, LANG), then the pod's own
//   variables over it, then the ones allot owns over those: ALLOT_WORKLOAD,
//   ALLOT_WORKLOAD_ID, ALLOT_NAMESPACE, ALLOT_TEAM, ALLOT_USER (the
//   submitting user; removed, never taken from the pod's own variables, when
//   it is not known), ALLOT_POD_INDEX, ALLOT_NODE, ALLOT_SHARED_DIR and
//   CUDA_VISIBLE_DEVICES. Nothing of the allotd environment leaks in. Sorted
//   "NAME=value" strings.
// - cuda_visible_devices(): the pod's GPU indices joined with commas, each
//   replaced by the UUID of the discovered GPU with that index when there is
//   one; "" for a pod without GPUs, so that it sees none.
// - validate_pod_launch(): rejects what cannot become a process (no command,
//   a negative GPU index, an empty variable name or one holding '=' or a NUL,
//   a value or a user name holding a NUL).
#pragma once

#include <string>
#include <vector>

#include "backends/local/gpu_discovery.h"
#include "backends/local/pod_process.h"
#include "base/status.h"

namespace allot::local {

inline constexpr const char* kBasePath =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Where the pod runs and as whom, for its environment.
struct PodPlace {
  std::string user;  // the Unix account (USER)
  std::string home_dir;
  std::string shared_dir;
};

Status validate_pod_launch(const PodLaunch& pod);
std::vector<std::string> pod_argv(const PodLaunch& pod);
std::string cuda_visible_devices(const std::vector<int32_t>& gpus,
                                 const std::vector<GpuDevice>& discovered);
std::vector<std::string> pod_env(const PodLaunch& pod, const PodPlace& place,
                                 const std::string& visible_devices);

}  // namespace allot::local
