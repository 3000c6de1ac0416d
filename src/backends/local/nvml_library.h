// NvmlLibrary: NVML (the NVIDIA driver's management library), loaded with
// dlopen() and initialised for as long as the object lives.
//
// Contract: open() dlopen()s the named library and calls nvmlInit_v2; an
// error (kUnavailable) says why when the library is absent, lacks a
// function every use needs (count, handle, UUID, name) or does not
// initialise. The destructor calls nvmlShutdown and unloads it. Reads
// return kUnavailable with NVML's words on a failed call; utilization() and
// memory() also when the library lacks nvmlDeviceGetUtilizationRates /
// nvmlDeviceGetMemoryInfo. Nothing links against NVML at build time: the
// few functions used are declared by hand (their C ABI has been stable
// since the _v2 entry points; types from nvml.h). Thread-safe as NVML is.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/result.h"

namespace allot::local {

struct NvmlUtilization {
  uint32_t gpu_percent = 0;     // share of the last sample period a kernel ran
  uint32_t memory_percent = 0;  // share of it the memory was read or written
};

struct NvmlMemory {
  uint64_t total_bytes = 0;
  uint64_t used_bytes = 0;
};

class NvmlLibrary {
 public:
  using Device = struct NvmlDeviceOpaque*;

  static Result<std::unique_ptr<NvmlLibrary>> open(const char* library);
  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  [[nodiscard]] Result<uint32_t> count() const;
  [[nodiscard]] Result<Device> device(uint32_t index) const;
  [[nodiscard]] Result<std::string> uuid(Device device) const;
  [[nodiscard]] Result<std::string> name(Device device) const;
  // -1 when NVML cannot say (or lacks the function).
  [[nodiscard]] int32_t minor(Device device) const;
  [[nodiscard]] Result<NvmlUtilization> utilization(Device device) const;
  [[nodiscard]] Result<NvmlMemory> memory(Device device) const;

 private:
  struct Api;
  NvmlLibrary(void* handle, std::unique_ptr<Api> api);
  [[nodiscard]] Status failed(const std::string& call, int code) const;

  void* handle_;
  std::unique_ptr<Api> api_;
};

}  // namespace allot::local
