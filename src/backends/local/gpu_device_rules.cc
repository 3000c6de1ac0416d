#include "backends/local/gpu_device_rules.h"

#include <algorithm>
#include <set>
#include <string>

#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace allot::local {

std::vector<int32_t> gpu_device_minors(const std::string& dev_dir) {
  std::set<int32_t> minors;
  DIR* dir = ::opendir(dev_dir.c_str());
  if (dir == nullptr) return {};
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    const std::string digits = name.starts_with("nvidia") ? name.substr(6) : "";
    if (digits.empty() ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    std::string path = dev_dir;
    path += "/" + name;
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISCHR(info.st_mode) ||
        major(info.st_rdev) != kNvidiaMajor) {
      continue;
    }
    minors.insert(static_cast<int32_t>(minor(info.st_rdev)));
  }
  ::closedir(dir);
  return {minors.begin(), minors.end()};
}

std::vector<int32_t> pod_gpu_minors(const std::vector<int32_t>& pod_gpus,
                                    const std::vector<GpuDevice>& machine) {
  std::vector<int32_t> out;
  for (const int32_t index : pod_gpus) {
    int32_t minor_number = index;
    for (const GpuDevice& gpu : machine) {
      if (gpu.index == index && gpu.minor >= 0) minor_number = gpu.minor;
    }
    out.push_back(minor_number);
  }
  return out;
}

std::vector<std::string> gpu_deny_rules(const std::vector<int32_t>& machine_minors,
                                        const std::vector<int32_t>& pod_minors) {
  const std::set<int32_t> held(pod_minors.begin(), pod_minors.end());
  const std::set<int32_t> all(machine_minors.begin(), machine_minors.end());
  std::vector<std::string> rules;
  for (const int32_t minor_number : all) {
    if (minor_number < 0 || held.contains(minor_number)) continue;
    rules.push_back("c " + std::to_string(kNvidiaMajor) + ":" + std::to_string(minor_number) +
                    " rwm");
  }
  return rules;
}

}  // namespace allot::local
