// GPU device rules: which of the machine's /dev/nvidia<N> a pod may open,
// beyond CUDA_VISIBLE_DEVICES (which a pod can simply unset). Applied through
// the cgroup v1 devices controller (cgroup_v1_pool.h); cgroup v2 would need an
// eBPF device program, which is not done.
//
// Contract:
// - gpu_device_minors(dev_dir) lists the minors of the GPU device files in
//   dev_dir: character devices named nvidia<digits> of major 195 (nvidiactl,
//   nvidia-uvm and nvidia-modeset are shared, not GPUs, and stay open).
// - pod_gpu_minors(pod_gpus, machine) maps the pod's GPU indices to minors:
//   the NVML minor of the discovered GPU with that index, else the index.
// - gpu_deny_rules(machine_minors, pod_minors) is pure: "c 195:M rwm" for
//   each machine minor the pod does not hold, ascending, without duplicates.
//   The kernel's default (allow) stays for every other device.
// Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/local/gpu_discovery.h"

namespace allot::local {

inline constexpr int kNvidiaMajor = 195;

std::vector<int32_t> gpu_device_minors(const std::string& dev_dir = "/dev");
std::vector<int32_t> pod_gpu_minors(const std::vector<int32_t>& pod_gpus,
                                    const std::vector<GpuDevice>& machine);
std::vector<std::string> gpu_deny_rules(const std::vector<int32_t>& machine_minors,
                                        const std::vector<int32_t>& pod_minors);

}  // namespace allot::local
