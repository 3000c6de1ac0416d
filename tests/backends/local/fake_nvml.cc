// A fake NVML library for tests (libfake_nvml.so): the NVML functions allot
// calls (backends/local/nvml_library.h), answering from a text file the test
// writes, named by the environment variable ALLOT_FAKE_NVML_FILE and read
// again on every call, so a test changes the GPUs' utilisation by rewriting
// it. One GPU per line:
//
//   <uuid> <gpu percent | fail> <memory used bytes> <memory total bytes> <name>
//
// "fail" makes nvmlDeviceGetUtilizationRates answer NVML_ERROR_UNKNOWN (999)
// for that GPU. No file: nvmlInit_v2 fails with NVML_ERROR_DRIVER_NOT_LOADED (9).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct FakeNvmlGpu {
  std::string uuid;
  std::string percent;
  uint64_t used = 0;
  uint64_t total = 0;
  std::string name;
};

constexpr int kFakeNvmlSuccess = 0;
constexpr int kFakeNvmlInvalidArgument = 2;
constexpr int kFakeNvmlDriverNotLoaded = 9;
constexpr int kFakeNvmlUnknown = 999;

std::vector<FakeNvmlGpu> fake_nvml_gpus(bool* found = nullptr) {
  std::vector<FakeNvmlGpu> gpus;
  const char* path = std::getenv("ALLOT_FAKE_NVML_FILE");
  std::ifstream in(path != nullptr ? path : "");
  if (found != nullptr) *found = in.is_open();
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    FakeNvmlGpu gpu;
    if (!(fields >> gpu.uuid >> gpu.percent >> gpu.used >> gpu.total)) continue;
    std::getline(fields >> std::ws, gpu.name);
    gpus.push_back(gpu);
  }
  return gpus;
}

// Handles are index + 1, so that none is null.
bool fake_nvml_gpu(void* device, FakeNvmlGpu* out) {
  const auto index = reinterpret_cast<uintptr_t>(device);  // NOLINT: the fake's handle
  const std::vector<FakeNvmlGpu> gpus = fake_nvml_gpus();
  if (index == 0 || index > gpus.size()) return false;
  *out = gpus[index - 1];
  return true;
}

int fake_nvml_copy(const std::string& text, char* out, unsigned int size) {
  if (text.size() + 1 > size) return kFakeNvmlInvalidArgument;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return kFakeNvmlSuccess;
}

}  // namespace

extern "C" {

struct FakeNvmlUtilization {
  unsigned int gpu;
  unsigned int memory;
};
struct FakeNvmlMemory {
  unsigned long long total;  // NOLINT(google-runtime-int): nvml.h's type
  unsigned long long free;   // NOLINT(google-runtime-int)
  unsigned long long used;   // NOLINT(google-runtime-int)
};

int nvmlInit_v2() {
  bool found = false;
  fake_nvml_gpus(&found);
  return found ? kFakeNvmlSuccess : kFakeNvmlDriverNotLoaded;
}

int nvmlShutdown() { return kFakeNvmlSuccess; }

const char* nvmlErrorString(int code) {
  if (code == kFakeNvmlDriverNotLoaded) return "Driver Not Loaded";
  if (code == kFakeNvmlInvalidArgument) return "Invalid Argument";
  return "Unknown Error";
}

int nvmlDeviceGetCount_v2(unsigned int* count) {
  *count = static_cast<unsigned int>(fake_nvml_gpus().size());
  return kFakeNvmlSuccess;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
  if (index >= fake_nvml_gpus().size()) return kFakeNvmlInvalidArgument;
  *device = reinterpret_cast<void*>(uintptr_t{index} + 1);  // NOLINT: the fake's handle
  return kFakeNvmlSuccess;
}

int nvmlDeviceGetUUID(void* device, char* uuid, unsigned int size) {
  FakeNvmlGpu gpu;
  return fake_nvml_gpu(device, &gpu) ? fake_nvml_copy(gpu.uuid, uuid, size)
                                     : kFakeNvmlInvalidArgument;
}

int nvmlDeviceGetName(void* device, char* name, unsigned int size) {
  FakeNvmlGpu gpu;
  return fake_nvml_gpu(device, &gpu) ? fake_nvml_copy(gpu.name, name, size)
                                     : kFakeNvmlInvalidArgument;
}

int nvmlDeviceGetMinorNumber(void* device, unsigned int* minor) {
  *minor = static_cast<unsigned int>(reinterpret_cast<uintptr_t>(device) - 1);  // NOLINT
  return kFakeNvmlSuccess;
}

int nvmlDeviceGetUtilizationRates(void* device, FakeNvmlUtilization* rates) {
  FakeNvmlGpu gpu;
  if (!fake_nvml_gpu(device, &gpu)) return kFakeNvmlInvalidArgument;
  if (gpu.percent == "fail") return kFakeNvmlUnknown;
  rates->gpu = static_cast<unsigned int>(std::stoul(gpu.percent));
  rates->memory = 0;
  return kFakeNvmlSuccess;
}

int nvmlDeviceGetMemoryInfo(void* device, FakeNvmlMemory* memory) {
  FakeNvmlGpu gpu;
  if (!fake_nvml_gpu(device, &gpu)) return kFakeNvmlInvalidArgument;
  memory->total = gpu.total;
  memory->used = gpu.used;
  memory->free = gpu.total - gpu.used;
  return kFakeNvmlSuccess;
}

}  // extern "C"
