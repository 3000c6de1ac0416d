#include "backends/local/gpu_discovery.h"

#include <string>
#include <utility>

#include <dlfcn.h>

namespace allot::local {
namespace {

// NVML is declared by hand: no Debian package gives us the NVML header or a
// loader (they come with the CUDA toolkit and the NVIDIA driver, neither of
// which a build machine has), and we only need six functions whose C ABI has
// been stable since the _v2 entry points. Types are from nvml.h.
using NvmlReturn = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
using NvmlDevice = struct NvmlDeviceOpaque*;
using NvmlInitFn = NvmlReturn (*)();
using NvmlShutdownFn = NvmlReturn (*)();
using NvmlCountFn = NvmlReturn (*)(unsigned int*);
using NvmlHandleFn = NvmlReturn (*)(unsigned int, NvmlDevice*);
using NvmlStringFn = NvmlReturn (*)(NvmlDevice, char*, unsigned int);
using NvmlErrorStringFn = const char* (*)(NvmlReturn);
using NvmlMinorFn = NvmlReturn (*)(NvmlDevice, unsigned int*);

constexpr unsigned int kBufferSize = 96;  // >= NVML_DEVICE_UUID_V2_BUFFER_SIZE (96), name (96)

struct NvmlApi {
  NvmlInitFn init = nullptr;
  NvmlShutdownFn shutdown = nullptr;
  NvmlCountFn count = nullptr;
  NvmlHandleFn handle = nullptr;
  NvmlStringFn uuid = nullptr;
  NvmlStringFn name = nullptr;
  NvmlErrorStringFn error_string = nullptr;  // optional
  NvmlMinorFn get_minor = nullptr;           // optional: /dev/nvidia<minor>
};

template <typename Fn>
bool load(void* library, const char* symbol, Fn& out) {
  // POSIX guarantees that a dlsym() result converts to a function pointer.
  out = reinterpret_cast<Fn>(::dlsym(library, symbol));
  return out != nullptr;
}

std::string describe(const NvmlApi& api, const std::string& call, NvmlReturn code) {
  std::string text = call + " failed: ";
  const char* message = api.error_string != nullptr ? api.error_string(code) : nullptr;
  return text + (message != nullptr ? message : "NVML error " + std::to_string(code));
}

GpuDiscovery list_devices(const NvmlApi& api) {
  GpuDiscovery out;
  unsigned int count = 0;
  if (const NvmlReturn rc = api.count(&count); rc != 0) {
    out.reason = describe(api, "nvmlDeviceGetCount_v2", rc);
    return out;
  }
  for (unsigned int i = 0; i < count; ++i) {
    NvmlDevice device = nullptr;
    char uuid[kBufferSize] = {};
    char name[kBufferSize] = {};
    NvmlReturn rc = api.handle(i, &device);
    if (rc == 0) rc = api.uuid(device, uuid, kBufferSize);
    if (rc != 0) {
      out.devices.clear();
      out.reason = describe(api, "reading GPU " + std::to_string(i), rc);
      return out;
    }
    if (api.name(device, name, kBufferSize) != 0) name[0] = '\0';
    GpuDevice found{static_cast<int32_t>(i), uuid, name};
    unsigned int minor = 0;
    if (api.get_minor != nullptr && api.get_minor(device, &minor) == 0) {
      found.minor = static_cast<int32_t>(minor);
    }
    out.devices.push_back(std::move(found));
  }
  if (out.devices.empty()) out.reason = "NVML reports no GPUs";
  return out;
}

}  // namespace

GpuDiscovery discover_gpus(const char* library) {
  GpuDiscovery out;
  void* handle = ::dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = ::dlerror();
    out.reason = std::string("NVML not available: ") + (error != nullptr ? error : library);
    return out;
  }
  NvmlApi api;
  const bool loaded =
      load(handle, "nvmlInit_v2", api.init) && load(handle, "nvmlShutdown", api.shutdown) &&
      load(handle, "nvmlDeviceGetCount_v2", api.count) &&
      load(handle, "nvmlDeviceGetHandleByIndex_v2", api.handle) &&
      load(handle, "nvmlDeviceGetUUID", api.uuid) && load(handle, "nvmlDeviceGetName", api.name);
  load(handle, "nvmlErrorString", api.error_string);
  load(handle, "nvmlDeviceGetMinorNumber", api.get_minor);
  if (!loaded) {
    out.reason = std::string(library) + " lacks an NVML function this needs";
  } else if (const NvmlReturn rc = api.init(); rc != 0) {
    out.reason = describe(api, "nvmlInit_v2", rc);
  } else {
    out = list_devices(api);
    api.shutdown();
  }
  ::dlclose(handle);
  return out;
}

}  // namespace allot::local
