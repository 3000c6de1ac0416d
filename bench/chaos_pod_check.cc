#include "bench/chaos_pod_check.h"

#include <map>
#include <utility>
#include <vector>

#include "bench/chaos_pods.h"
#include "bench/load_cluster.h"

namespace allot::bench {
namespace {

using nlohmann::json;

// Why `pod` should not be alive, or empty when it may be.
std::string stale_reason(const PodProcess& pod, int status, const json& workload) {
  if (status == 404) return "its workload is deleted";
  if (workload.is_discarded()) return {};  // not readable now: the reader keeps the error
  if (workload.at("metadata").value("uid", uint64_t{0}) != pod.workload_id) {
    return "it belongs to an older workload of that name (uid " + std::to_string(pod.workload_id) +
           ")";
  }
  const json& state = workload.at("status");
  const std::string phase = state.value("phase", "");
  if (terminal_phase(phase)) return "its workload is " + phase;
  if ((phase == "Pending" || phase == "Preempted") && !state.value("stopping", false)) {
    return "its workload is " + phase;
  }
  return {};
}

std::vector<std::string> pod_violations(ChaosReader& reader, const std::vector<PodProcess>& pods) {
  std::vector<std::string> out;
  std::map<std::string, std::pair<int, json>> workloads;  // key -> (status, body)
  std::map<std::pair<uint64_t, int32_t>, pid_t> seen;
  for (const PodProcess& pod : pods) {
    const auto [twin, fresh] = seen.emplace(std::pair(pod.workload_id, pod.pod_index), pod.pid);
    if (!fresh) {
      out.push_back("pod " + std::to_string(pod.pod_index) + " of " + pod.key() +
                    " runs twice: pids " + std::to_string(twin->second) + " and " +
                    std::to_string(pod.pid));
    }
    auto known = workloads.find(pod.key());
    if (known == workloads.end()) {
      int status = 0;
      json body = reader.get(workloads_path(pod.key()), status);
      known = workloads.emplace(pod.key(), std::pair(status, std::move(body))).first;
    }
    const std::string why = stale_reason(pod, known->second.first, known->second.second);
    if (!why.empty()) {
      out.push_back("pod " + std::to_string(pod.pod_index) + " of " + pod.key() + " (pid " +
                    std::to_string(pod.pid) + ") is alive, but " + why);
    }
  }
  return out;
}

}  // namespace

void check_pods(ChaosReader& reader, const std::string& data_dir, ChaosCheckResult& result) {
  std::vector<std::string> last;
  poll_until(
      [&] {
        const std::vector<PodProcess> pods = scan_pod_processes(data_dir);
        result.pods_alive = static_cast<int64_t>(pods.size());
        last = pod_violations(reader, pods);
        return last.empty() || !reader.error().empty();
      },
      kSettleLimit);
  if (!reader.error().empty()) {
    result.error = reader.error();
    return;
  }
  result.violations.insert(result.violations.end(), last.begin(), last.end());
}

}  // namespace allot::bench
