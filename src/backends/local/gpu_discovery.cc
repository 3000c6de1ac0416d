#include "backends/local/gpu_discovery.h"

#include <memory>
#include <string>
#include <utility>

#include "backends/local/nvml_library.h"

namespace allot::local {
namespace {

GpuDiscovery list_devices(const NvmlLibrary& nvml) {
  GpuDiscovery out;
  const Result<uint32_t> count = nvml.count();
  if (!count.ok()) {
    out.reason = count.status().message();
    return out;
  }
  for (uint32_t i = 0; i < *count; ++i) {
    Result<NvmlLibrary::Device> device = nvml.device(i);
    Result<std::string> uuid =
        device.ok() ? nvml.uuid(*device) : Result<std::string>(device.status());
    if (!uuid.ok()) {
      out.devices.clear();
      const std::string message = uuid.status().message();
      out.reason = message.starts_with("reading GPU")
                       ? message
                       : "reading GPU " + std::to_string(i) + " failed: " + message;
      return out;
    }
    const Result<std::string> name = nvml.name(*device);
    GpuDevice found{static_cast<int32_t>(i), std::move(*uuid), name.ok() ? *name : std::string()};
    found.minor = nvml.minor(*device);
    out.devices.push_back(std::move(found));
  }
  if (out.devices.empty()) out.reason = "NVML reports no GPUs";
  return out;
}

}  // namespace

GpuDiscovery discover_gpus(const char* library) {
  Result<std::unique_ptr<NvmlLibrary>> nvml = NvmlLibrary::open(library);
  if (!nvml.ok()) return GpuDiscovery{{}, nvml.status().message()};
  return list_devices(**nvml);
}

}  // namespace allot::local
