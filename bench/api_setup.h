// What `allot-bench api` and its audit pairs (`--audit both`) set up in the
// allotd they measure: the policy (one team owning one node with one GPU), the
// workload each client submits (one GPU, `sleep 3600`: the first runs, the
// rest stay Pending), the bench's keep-alive httplib client and its own work
// folder.
//
// Contract: plain helpers; WorkFolder makes a fresh folder under the
// temporary directory (path() empty when it could not) and removes it with
// everything in it when destroyed.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <httplib.h>

#include "bench/http_load_client.h"

namespace allot::bench {

inline constexpr const char* kApiBenchTeam = "research";
// How long allotd may take to start, and to stop after SIGTERM.
inline constexpr std::chrono::milliseconds kAllotdStartLimit{60'000};
inline constexpr std::chrono::milliseconds kAllotdStopLimit{120'000};

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The policy applied before the submits (YAML for POST /api/v1/apply).
const char* api_bench_policy();

// A Workload (JSON) named `name` in the team's namespace.
std::string api_bench_workload_json(const std::string& name);

// `token`: the administrator's API token ("" for an allotd without logins).
std::unique_ptr<httplib::Client> api_bench_client(int port, const std::string& token);

// `count` submits of the bench's workload, named s-<first_name + i>, from
// every client at once (each on a thread of its own, keep-alive): the
// latency of each one answered 201 (ms), how many were not, the first such
// answer, and the wall time of the whole burst.
struct SubmitBurst {
  std::vector<double> latencies_ms;
  int64_t errors = 0;
  std::string first_error;
  double wall_s = 0;
};
SubmitBurst submit_burst(const std::vector<std::unique_ptr<HttpLoadClient>>& clients,
                         int32_t first_name, int32_t count);

std::string describe(const httplib::Result& res);
std::string describe(const HttpAnswer& answer);

class WorkFolder {
 public:
  WorkFolder();
  ~WorkFolder();
  WorkFolder(const WorkFolder&) = delete;
  WorkFolder& operator=(const WorkFolder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace allot::bench
