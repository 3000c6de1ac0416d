#include "bench/mixed_bench.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "bench/http_load_client.h"
#include "bench/percentile.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kStartLimit{60'000};
constexpr milliseconds kStopLimit{120'000};
constexpr int kTeams = 4;

enum class Op : uint8_t { kSubmit, kGet, kList, kCancel, kDelete, kTop, kApply, kDrain, kUncordon };
constexpr const char* kOpNames[] = {"submit", "get",   "list",  "cancel",  "delete",
                                    "top",    "apply", "drain", "uncordon"};
constexpr size_t kOpCount = std::size(kOpNames);

// The op mix in percent, in the order of Op (uncordon follows each drain).
constexpr int kMix[] = {30, 20, 15, 10, 10, 5, 5, 5};

std::string policy_yaml(int32_t nodes, int first_team_nominal) {
  std::string yaml = R"(apiVersion: allot/v1
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
spec: {cluster: local, flavor: gpu, count: )" +
                     std::to_string(nodes) + R"(, resources: {gpu: 8, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 100, preemptionGracePeriod: 0s}
)";
  const int32_t share = nodes * 8 / kTeams;
  for (int t = 0; t < kTeams; ++t) {
    const int nominal = t == 0 ? first_team_nominal : share;
    yaml += "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: t" + std::to_string(t) +
            "}\nspec:\n  cohort: org\n  quota: [{flavor: gpu, resources: {gpu: {nominal: " +
            std::to_string(nominal) + "}}}]\n";
  }
  return yaml;
}

std::string workload_json(const std::string& name) {
  return R"({"apiVersion":"allot/v1","kind":"Workload","metadata":{"name":")" + name +
         R"("},"spec":{"priorityClass":"batch","podSets":[{"count":1,"resources":{"gpu":1}}],)"
         R"("command":["sleep","20"]}})";
}

// The statuses the API documents for each request in a busy cluster.
bool expected(Op op, int status) {
  switch (op) {
    case Op::kSubmit: return status == 201;
    case Op::kGet: return status == 200 || status == 404;
    case Op::kCancel: return status == 200 || status == 404 || status == 409;
    case Op::kDelete: return status == 200 || status == 404 || status == 409;
    default: return status == 200;
  }
}

struct Sample {
  Op op;
  float ms;
  bool error;
  bool timeout;
};

class MixedClient {
 public:
  MixedClient(const MixedConfig& config, int port, int id)
      : config_(config), http_(port, config.timeout_s), rng_(config.seed * 7919 + id), id_(id) {}

  void run_until(SteadyClock::time_point end) {
    while (SteadyClock::now() < end) step();
  }
  [[nodiscard]] const std::vector<Sample>& samples() const { return samples_; }
  [[nodiscard]] const std::string& first_failure() const { return first_failure_; }

 private:
  Op pick() {
    int roll = static_cast<int>(rng_() % 100);
    for (size_t i = 0; i < std::size(kMix); ++i) {
      if (roll < kMix[i]) return static_cast<Op>(i);
      roll -= kMix[i];
    }
    return Op::kSubmit;
  }

  void step() {
    Op op = pick();
    if ((op == Op::kGet || op == Op::kCancel || op == Op::kDelete) && mine_.empty()) {
      op = Op::kSubmit;
    }
    switch (op) {
      case Op::kSubmit: {
        const std::string team = "t" + std::to_string(rng_() % kTeams);
        const std::string name = "c" + std::to_string(id_) + "-" + std::to_string(next_++);
        if (send(op, "POST", path_of(team), workload_json(name)))
          mine_.push_back(team + "/" + name);
        return;
      }
      case Op::kGet: send(op, "GET", path_of(any_mine())); return;
      case Op::kList:
        send(op, "GET", path_of("t" + std::to_string(rng_() % kTeams)) + "?limit=100");
        return;
      case Op::kCancel: send(op, "POST", path_of(any_mine()) + "/cancel"); return;
      case Op::kDelete: {
        const size_t at = rng_() % mine_.size();
        send(op, "DELETE", path_of(mine_[at]));
        mine_.erase(mine_.begin() + static_cast<std::ptrdiff_t>(at));
        return;
      }
      case Op::kTop: send(op, "GET", "/api/v1/top"); return;
      case Op::kApply:
        send(op, "POST", "/api/v1/apply", policy_yaml(config_.nodes, rng_() % 2 == 0 ? 8 : 6),
             "application/yaml");
        return;
      default: {
        const std::string node = "/api/v1/nodes/pool-" + std::to_string(rng_() % config_.nodes);
        send(Op::kDrain, "POST", node + "/drain");
        send(Op::kUncordon, "POST", node + "/uncordon");
        return;
      }
    }
  }

  // "team/name" or "team" to its API path.
  static std::string path_of(const std::string& key) {
    const size_t slash = key.find('/');
    if (slash == std::string::npos) return "/api/v1/namespaces/" + key + "/workloads";
    return "/api/v1/namespaces/" + key.substr(0, slash) + "/workloads/" + key.substr(slash + 1);
  }
  const std::string& any_mine() { return mine_[rng_() % mine_.size()]; }

  // True when the answer was the expected success (2xx).
  bool send(Op op, const char* method, const std::string& path, const std::string& body = {},
            const char* type = "application/json") {
    const SteadyClock::time_point start = SteadyClock::now();
    const HttpAnswer answer = http_.request(method, path, body.empty() ? "" : type, body);
    const auto ms = std::chrono::duration<float, std::milli>(SteadyClock::now() - start).count();
    const bool timeout = answer.status == 0 && answer.error.starts_with("timeout");
    const bool error = !timeout && !expected(op, answer.status);
    samples_.push_back({op, ms, error, timeout});
    if ((error || timeout) && first_failure_.empty()) {
      first_failure_ =
          std::string(method) + " " + path + ": " +
          (answer.status == 0 ? answer.error
                              : std::to_string(answer.status) + " " + answer.body.substr(0, 300));
    }
    return answer.status / 100 == 2;
  }

  const MixedConfig& config_;
  HttpLoadClient http_;
  std::mt19937_64 rng_;
  int id_;
  int next_ = 0;
  std::vector<std::string> mine_;
  std::vector<Sample> samples_;
  std::string first_failure_;
};

OpFigures figures_of(const std::vector<const Sample*>& samples) {
  OpFigures out;
  std::vector<double> ms;
  ms.reserve(samples.size());
  for (const Sample* sample : samples) {
    ++out.count;
    out.errors += sample->error ? 1 : 0;
    out.timeouts += sample->timeout ? 1 : 0;
    ms.push_back(sample->ms);
  }
  out.p50_ms = percentile(ms, 50);
  out.p99_ms = percentile(ms, 99);
  out.max_ms = percentile(ms, 100);
  return out;
}

void summarise(const std::vector<std::unique_ptr<MixedClient>>& clients, MixedReport& report) {
  std::vector<const Sample*> all;
  std::vector<std::vector<const Sample*>> by_op(kOpCount);
  for (const auto& client : clients) {
    for (const Sample& sample : client->samples()) {
      all.push_back(&sample);
      by_op[static_cast<size_t>(sample.op)].push_back(&sample);
    }
    if (report.first_failure.empty()) report.first_failure = client->first_failure();
  }
  report.all = figures_of(all);
  for (size_t i = 0; i < kOpCount; ++i) report.by_op[kOpNames[i]] = figures_of(by_op[i]);
}

std::string drive(const MixedConfig& config, int port, MixedReport& report, std::FILE* log) {
  HttpLoadClient setup(port, 60);
  const HttpAnswer applied =
      setup.post("/api/v1/apply", "application/yaml", policy_yaml(config.nodes, 8));
  if (applied.status != 200) return "apply of the policy failed: " + applied.body + applied.error;
  std::vector<std::unique_ptr<MixedClient>> clients;
  for (int32_t i = 0; i < config.clients; ++i) {
    clients.push_back(std::make_unique<MixedClient>(config, port, i));
  }
  std::fprintf(log, "%d clients for %d s\n", config.clients, config.seconds);
  const SteadyClock::time_point start = SteadyClock::now();
  const SteadyClock::time_point end = start + std::chrono::seconds(config.seconds);
  std::vector<std::thread> threads;
  for (const auto& client : clients) {
    threads.emplace_back([&client, end] { client->run_until(end); });
  }
  for (std::thread& thread : threads) thread.join();
  report.wall_s = std::chrono::duration<double>(SteadyClock::now() - start).count();
  summarise(clients, report);
  return {};
}

}  // namespace

MixedReport run_mixed(const MixedConfig& config, std::FILE* log) {
  MixedReport report;
  report.config = config;
  const std::filesystem::path work =
      std::filesystem::temp_directory_path() / ("allot-mixed-" + std::to_string(::getpid()));
  std::filesystem::create_directories(work);
  {
    tools::AllotdChild allotd({config.allotd,
                               (work / "data").string(),
                               "127.0.0.1:0",
                               (work / "allotd.err").string(),
                               {"--threads", std::to_string(config.allotd_threads)}});
    if (std::string error = allotd.start(kStartLimit); !error.empty()) {
      report.error = "allotd did not start: " + error;
    } else {
      std::fprintf(log, "allotd %d on port %d\n", allotd.pid(), allotd.port());
      report.error = drive(config, allotd.port(), report, log);
      allotd.stop(kStopLimit);
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(work, ignored);
  return report;
}

std::string mixed_report_json(const MixedReport& r) {
  const auto figures = [](const OpFigures& f) {
    return nlohmann::json{{"count", f.count},   {"errors", f.errors}, {"timeouts", f.timeouts},
                          {"p50_ms", f.p50_ms}, {"p99_ms", f.p99_ms}, {"max_ms", f.max_ms}};
  };
  nlohmann::json out = {{"clients", r.config.clients},
                        {"seconds", r.config.seconds},
                        {"allotd", r.config.allotd},
                        {"error", r.error},
                        {"first_failure", r.first_failure},
                        {"wall_s", r.wall_s},
                        {"all", figures(r.all)}};
  for (const auto& [name, f] : r.by_op) out["ops"][name] = figures(f);
  return out.dump(2) + "\n";
}

std::string mixed_report_text(const MixedReport& r) {
  char line[256];
  std::string out;
  std::snprintf(line, sizeof(line), "%-9s %9s %7s %9s %9s %9s %9s\n", "op", "requests", "errors",
                "timeouts", "p50 ms", "p99 ms", "max ms");
  out += line;
  const auto row = [&](const std::string& name, const OpFigures& f) {
    std::snprintf(line, sizeof(line), "%-9s %9lld %7lld %9lld %9.2f %9.2f %9.2f\n", name.c_str(),
                  static_cast<long long>(f.count), static_cast<long long>(f.errors),
                  static_cast<long long>(f.timeouts), f.p50_ms, f.p99_ms, f.max_ms);
    out += line;
  };
  for (const auto& [name, f] : r.by_op) row(name, f);
  row("all", r.all);
  std::snprintf(line, sizeof(line), "%d clients, %.1f s (goal: 0 errors, 0 timeouts, p99 <= 250)\n",
                r.config.clients, r.wall_s);
  out += line;
  if (!r.first_failure.empty()) out += "first failure: " + r.first_failure + "\n";
  if (!r.error.empty()) out += "error: " + r.error + "\n";
  return out;
}

}  // namespace allot::bench
