#include "backends/local/pod_command.h"

#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace allot::local {
Status validate_pod_launch(const PodLaunch& pod) {
  if (pod.command.empty()) return invalid_argument("pod has no command");
  for (int32_t gpu : pod.gpus) {
    if (gpu < 0) return invalid_argument("negative GPU index " + std::to_string(gpu));
  }
  for (const auto& [name, value] : pod.env) {
    if (name.empty() || name.find_first_of(std::string("=\0", 2)) != std::string::npos ||
        value.find('\0') != std::string::npos) {
      return invalid_argument("invalid environment variable name '" + name + "'");
    }
  }
  if (pod.user.find('\0') != std::string::npos) {
    return invalid_argument("the submitting user's name holds a NUL");
  }
  return {};
}

std::vector<std::string> pod_argv(const PodLaunch& pod) { return pod.command; }

std::string cuda_visible_devices(const std::vector<int32_t>& gpus,
                                 const std::vector<GpuDevice>& discovered) {
  std::string out;
  for (int32_t gpu : gpus) {
    if (!out.empty()) out += ',';
    const bool known = gpu >= 0 && static_cast<size_t>(gpu) < discovered.size();
    out += known ? discovered[static_cast<size_t>(gpu)].uuid : std::to_string(gpu);
  }
  return out;
}

std::vector<std::string> pod_env(const PodLaunch& pod, const PodPlace& place,
                                 const std::string& visible_devices) {
  std::map<std::string, std::string> env = {
      {"PATH", kBasePath}, {"HOME", place.home_dir}, {"USER", place.user}, {"LANG", "C.UTF-8"}};
  for (const auto& [name, value] : pod.env) env[name] = value;
  env["ALLOT_WORKLOAD"] = pod.workload_name;
  env["ALLOT_WORKLOAD_ID"] = std::to_string(pod.workload_id);
  env["ALLOT_NAMESPACE"] = pod.namespace_name;
  env["ALLOT_TEAM"] = pod.team;
  if (pod.user.empty()) {
    env.erase("ALLOT_USER");
  } else {
    env["ALLOT_USER"] = pod.user;
  }
  env["ALLOT_POD_INDEX"] = std::to_string(pod.pod_index);
  env["ALLOT_NODE"] = pod.node;
  env["ALLOT_SHARED_DIR"] = place.shared_dir;
  env["CUDA_VISIBLE_DEVICES"] = visible_devices;
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) {
    std::string entry = name;
    entry += '=';
    entry += value;
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace allot::local
