#include "backends/local/nvml_library.h"

#include <utility>

#include <dlfcn.h>

namespace allot::local {
namespace {

using NvmlReturn = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
using NvmlDevice = NvmlLibrary::Device;

constexpr unsigned int kNvmlBufferSize = 96;  // >= NVML_DEVICE_UUID_V2_BUFFER_SIZE (96), name (96)

template <typename Fn>
bool load_nvml_symbol(void* library, const char* symbol, Fn& out) {
  // POSIX guarantees that a dlsym() result converts to a function pointer.
  out = reinterpret_cast<Fn>(::dlsym(library, symbol));
  return out != nullptr;
}

}  // namespace

struct NvmlLibrary::Api {
  // nvmlUtilization_t and nvmlMemory_t (nvml.h).
  struct UtilizationRates {
    unsigned int gpu;
    unsigned int memory;
  };
  struct MemoryInfo {
    unsigned long long total;  // NOLINT(google-runtime-int): nvml.h's type
    unsigned long long free;   // NOLINT(google-runtime-int)
    unsigned long long used;   // NOLINT(google-runtime-int)
  };
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  NvmlReturn (*count)(unsigned int*) = nullptr;
  NvmlReturn (*handle)(unsigned int, NvmlDevice*) = nullptr;
  NvmlReturn (*uuid)(NvmlDevice, char*, unsigned int) = nullptr;
  NvmlReturn (*name)(NvmlDevice, char*, unsigned int) = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;                   // optional
  NvmlReturn (*get_minor)(NvmlDevice, unsigned int*) = nullptr;        // optional
  NvmlReturn (*utilization)(NvmlDevice, UtilizationRates*) = nullptr;  // optional
  NvmlReturn (*memory)(NvmlDevice, MemoryInfo*) = nullptr;             // optional
};

Result<std::unique_ptr<NvmlLibrary>> NvmlLibrary::open(const char* library) {
  void* handle = ::dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = ::dlerror();
    return Status(ErrorCode::kUnavailable,
                  std::string("NVML not available: ") + (error != nullptr ? error : library));
  }
  auto api = std::make_unique<Api>();
  const bool loaded = load_nvml_symbol(handle, "nvmlInit_v2", api->init) &&
                      load_nvml_symbol(handle, "nvmlShutdown", api->shutdown) &&
                      load_nvml_symbol(handle, "nvmlDeviceGetCount_v2", api->count) &&
                      load_nvml_symbol(handle, "nvmlDeviceGetHandleByIndex_v2", api->handle) &&
                      load_nvml_symbol(handle, "nvmlDeviceGetUUID", api->uuid) &&
                      load_nvml_symbol(handle, "nvmlDeviceGetName", api->name);
  load_nvml_symbol(handle, "nvmlErrorString", api->error_string);
  load_nvml_symbol(handle, "nvmlDeviceGetMinorNumber", api->get_minor);
  load_nvml_symbol(handle, "nvmlDeviceGetUtilizationRates", api->utilization);
  load_nvml_symbol(handle, "nvmlDeviceGetMemoryInfo", api->memory);
  if (!loaded) {
    ::dlclose(handle);
    return Status(ErrorCode::kUnavailable,
                  std::string(library) + " lacks an NVML function this needs");
  }
  std::unique_ptr<NvmlLibrary> nvml(new NvmlLibrary(handle, std::move(api)));
  if (const NvmlReturn rc = nvml->api_->init(); rc != 0) {
    Status status = nvml->failed("nvmlInit_v2", rc);
    nvml->api_->shutdown = nullptr;  // nothing to shut down
    return status;
  }
  return nvml;
}

NvmlLibrary::NvmlLibrary(void* handle, std::unique_ptr<Api> api)
    : handle_(handle), api_(std::move(api)) {}

NvmlLibrary::~NvmlLibrary() {
  if (api_->shutdown != nullptr) api_->shutdown();
  ::dlclose(handle_);
}

Status NvmlLibrary::failed(const std::string& call, int code) const {
  const char* message = api_->error_string != nullptr ? api_->error_string(code) : nullptr;
  return {
      ErrorCode::kUnavailable,
      call + " failed: " + (message != nullptr ? message : "NVML error " + std::to_string(code))};
}

Result<uint32_t> NvmlLibrary::count() const {
  unsigned int count = 0;
  if (const NvmlReturn rc = api_->count(&count); rc != 0) {
    return failed("nvmlDeviceGetCount_v2", rc);
  }
  return static_cast<uint32_t>(count);
}

Result<NvmlLibrary::Device> NvmlLibrary::device(uint32_t index) const {
  Device device = nullptr;
  if (const NvmlReturn rc = api_->handle(index, &device); rc != 0) {
    return failed("reading GPU " + std::to_string(index), rc);
  }
  return device;
}

Result<std::string> NvmlLibrary::uuid(Device device) const {
  char text[kNvmlBufferSize] = {};
  if (const NvmlReturn rc = api_->uuid(device, text, kNvmlBufferSize); rc != 0) {
    return failed("nvmlDeviceGetUUID", rc);
  }
  return std::string(text);
}

Result<std::string> NvmlLibrary::name(Device device) const {
  char text[kNvmlBufferSize] = {};
  if (const NvmlReturn rc = api_->name(device, text, kNvmlBufferSize); rc != 0) {
    return failed("nvmlDeviceGetName", rc);
  }
  return std::string(text);
}

int32_t NvmlLibrary::minor(Device device) const {
  unsigned int minor = 0;
  if (api_->get_minor == nullptr || api_->get_minor(device, &minor) != 0) return -1;
  return static_cast<int32_t>(minor);
}

Result<NvmlUtilization> NvmlLibrary::utilization(Device device) const {
  if (api_->utilization == nullptr) {
    return Status(ErrorCode::kUnavailable, "NVML lacks nvmlDeviceGetUtilizationRates");
  }
  Api::UtilizationRates rates{};
  if (const NvmlReturn rc = api_->utilization(device, &rates); rc != 0) {
    return failed("nvmlDeviceGetUtilizationRates", rc);
  }
  return NvmlUtilization{rates.gpu, rates.memory};
}

Result<NvmlMemory> NvmlLibrary::memory(Device device) const {
  if (api_->memory == nullptr) {
    return Status(ErrorCode::kUnavailable, "NVML lacks nvmlDeviceGetMemoryInfo");
  }
  Api::MemoryInfo info{};
  if (const NvmlReturn rc = api_->memory(device, &info); rc != 0) {
    return failed("nvmlDeviceGetMemoryInfo", rc);
  }
  return NvmlMemory{info.total, info.used};
}

}  // namespace allot::local
