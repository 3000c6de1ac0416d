// GPU discovery: the machine's NVIDIA GPUs, through NVML loaded at run time.
//
// Contract: discover_gpus() dlopen()s the NVML library (libnvidia-ml.so.1,
// shipped with the NVIDIA driver), lists the devices in NVML index order with
// their UUID ("GPU-...") and name, shuts NVML down and unloads it. When the
// library is absent or any call fails, the list is empty and `reason` says
// why; nothing here aborts or throws. Nothing links against NVML at build
// time. Thread-safe (NVML reference-counts init/shutdown); slow-ish (it
// touches the driver): call it once at startup.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace allot::local {

struct GpuDevice {
  int32_t index = 0;   // NVML index, the node's GPU index
  std::string uuid;    // "GPU-8c2f...": what CUDA_VISIBLE_DEVICES accepts
  std::string name;    // "NVIDIA H100 80GB HBM3"
  int32_t minor = -1;  // of /dev/nvidia<minor> (NVML); -1: unknown, the index is assumed

  friend bool operator==(const GpuDevice&, const GpuDevice&) = default;
};

struct GpuDiscovery {
  std::vector<GpuDevice> devices;
  std::string reason;  // why `devices` is empty (empty when NVML answered)
};

inline constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

GpuDiscovery discover_gpus(const char* library = kNvmlLibrary);

}  // namespace allot::local
