#include "bench/api_setup.h"

#include <atomic>
#include <mutex>
#include <thread>
#include <utility>

#include <stdlib.h>

namespace allot::bench {

namespace fs = std::filesystem;

const char* api_bench_policy() {
  return R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 1s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: local, flavor: gpu, count: 1, resources: {gpu: 1, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 100, preemptionGracePeriod: 0s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  quota: [{flavor: gpu, resources: {gpu: {nominal: 1}}}]
)";
}

std::string api_bench_workload_json(const std::string& name) {
  return R"({"apiVersion":"allot/v1","kind":"Workload","metadata":{"name":")" + name +
         R"(","namespace":")" + kApiBenchTeam +
         R"("},"spec":{"priorityClass":"batch","podSets":[{"count":1,"resources":{"gpu":1}}],)"
         R"("command":["sleep","3600"]}})";
}

std::unique_ptr<httplib::Client> api_bench_client(int port, const std::string& token) {
  auto client = std::make_unique<httplib::Client>("127.0.0.1", port);
  if (!token.empty()) client->set_bearer_token_auth(token);
  client->set_keep_alive(true);
  // httplib sends headers and body in two writes: without TCP_NODELAY, Nagle
  // holds the body until the server's delayed ACK (~40 ms per request).
  client->set_tcp_nodelay(true);
  client->set_connection_timeout(5, 0);
  client->set_read_timeout(120, 0);
  client->set_write_timeout(60, 0);
  return client;
}

SubmitBurst submit_burst(const std::vector<std::unique_ptr<HttpLoadClient>>& clients,
                         int32_t first_name, int32_t count) {
  const std::string path = std::string("/api/v1/namespaces/") + kApiBenchTeam + "/workloads";
  std::atomic<int32_t> next{0};
  std::atomic<int64_t> errors{0};
  std::mutex error_mu;
  std::string first_error;
  std::vector<std::vector<double>> latencies(clients.size());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  threads.reserve(clients.size());
  for (size_t c = 0; c < clients.size(); ++c) {
    threads.emplace_back([&, c] {
      HttpLoadClient& http = *clients[c];
      std::vector<double>& mine = latencies[c];
      mine.reserve(static_cast<size_t>(count) / clients.size() + 1);
      for (int32_t i = next++; i < count; i = next++) {
        const std::string body = api_bench_workload_json("s-" + std::to_string(first_name + i));
        const auto sent = std::chrono::steady_clock::now();
        const HttpAnswer answer = http.post(path, "application/json", body);
        if (answer.status == 201) {
          mine.push_back(seconds_since(sent) * 1000.0);
          continue;
        }
        ++errors;
        std::lock_guard lock(error_mu);
        if (first_error.empty()) first_error = describe(answer);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  SubmitBurst burst;
  burst.wall_s = seconds_since(start);
  for (const std::vector<double>& mine : latencies) {
    burst.latencies_ms.insert(burst.latencies_ms.end(), mine.begin(), mine.end());
  }
  burst.errors = errors.load();
  burst.first_error = std::move(first_error);
  return burst;
}

std::string describe(const httplib::Result& res) {
  if (!res) return "no answer: " + httplib::to_string(res.error());
  return std::to_string(res->status) + " " + res->body.substr(0, 300);
}

std::string describe(const HttpAnswer& answer) {
  if (answer.status == 0) return "no answer: " + answer.error;
  return std::to_string(answer.status) + " " + answer.body.substr(0, 300);
}

WorkFolder::WorkFolder() {
  std::string pattern = (fs::temp_directory_path() / "allot-bench-api-XXXXXX").string();
  if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
}

WorkFolder::~WorkFolder() {
  std::error_code ignored;
  if (!path_.empty()) fs::remove_all(path_, ignored);
}

}  // namespace allot::bench
