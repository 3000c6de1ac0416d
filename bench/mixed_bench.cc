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
#include "bench/load_cluster.h"
#include "bench/load_op.h"
#include "bench/percentile.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kMixedStartLimit{60'000};
constexpr milliseconds kMixedStopLimit{120'000};
using Op = LoadOp;

struct Sample {
  Op op;
  float ms;
  bool error;
  bool timeout;
};

class MixedClient {
 public:
  MixedClient(const MixedConfig& config, int port, const std::string& token, int id)
      : config_(config),
        http_(port, config.timeout_s, token),
        rng_(config.seed * 7919 + id),
        id_(id) {}

  void run_until(SteadyClock::time_point end) {
    while (SteadyClock::now() < end) step();
  }
  [[nodiscard]] const std::vector<Sample>& samples() const { return samples_; }
  [[nodiscard]] const std::string& first_failure() const { return first_failure_; }

 private:
  void step() {
    Op op = pick_load_op(rng_);
    if ((op == Op::kGet || op == Op::kCancel || op == Op::kDelete) && mine_.empty()) {
      op = Op::kSubmit;
    }
    switch (op) {
      case Op::kSubmit: {
        const std::string team = "t" + std::to_string(rng_() % kLoadTeams);
        const std::string name = "c" + std::to_string(id_) + "-" + std::to_string(next_++);
        if (send(op, "POST", workloads_path(team), load_workload_json({.name = name})))
          mine_.push_back(team + "/" + name);
        return;
      }
      case Op::kGet: send(op, "GET", workloads_path(any_mine())); return;
      case Op::kList:
        send(op, "GET", workloads_path("t" + std::to_string(rng_() % kLoadTeams)) + "?limit=100");
        return;
      case Op::kCancel: send(op, "POST", workloads_path(any_mine()) + "/cancel"); return;
      case Op::kDelete: {
        const size_t at = rng_() % mine_.size();
        send(op, "DELETE", workloads_path(mine_[at]));
        mine_.erase(mine_.begin() + static_cast<std::ptrdiff_t>(at));
        return;
      }
      case Op::kTop: send(op, "GET", "/api/v1/top"); return;
      case Op::kApply:
        send(op, "POST", "/api/v1/apply",
             load_policy_yaml(
                 {.nodes = config_.nodes, .first_team_nominal = rng_() % 2 == 0 ? 8 : 6}),
             "application/yaml");
        return;
      default: {
        const std::string node =
            "/api/v1/nodes/" + load_node_name(static_cast<int32_t>(rng_() % config_.nodes));
        send(Op::kDrain, "POST", node + "/drain");
        send(Op::kUncordon, "POST", node + "/uncordon");
        return;
      }
    }
  }

  const std::string& any_mine() { return mine_[rng_() % mine_.size()]; }

  // True when the answer was the expected success (2xx).
  bool send(Op op, const char* method, const std::string& path, const std::string& body = {},
            const char* type = "application/json") {
    const SteadyClock::time_point start = SteadyClock::now();
    const HttpAnswer answer = http_.request(method, path, body.empty() ? "" : type, body);
    const auto ms = std::chrono::duration<float, std::milli>(SteadyClock::now() - start).count();
    const bool timeout = answer.status == 0 && answer.error.starts_with("timeout");
    const bool error = !timeout && !expected_status(op, answer.status);
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
  std::vector<std::vector<const Sample*>> by_op(kLoadOpCount);
  for (const auto& client : clients) {
    for (const Sample& sample : client->samples()) {
      all.push_back(&sample);
      by_op[static_cast<size_t>(sample.op)].push_back(&sample);
    }
    if (report.first_failure.empty()) report.first_failure = client->first_failure();
  }
  report.all = figures_of(all);
  for (size_t i = 0; i < kLoadOpCount; ++i) {
    report.by_op[load_op_name(static_cast<Op>(i))] = figures_of(by_op[i]);
  }
}

std::string drive(const MixedConfig& config, int port, const std::string& token,
                  MixedReport& report, std::FILE* log) {
  HttpLoadClient setup(port, 60, token);
  const HttpAnswer applied =
      setup.post("/api/v1/apply", "application/yaml", load_policy_yaml({.nodes = config.nodes}));
  if (applied.status != 200) return "apply of the policy failed: " + applied.body + applied.error;
  std::vector<std::unique_ptr<MixedClient>> clients;
  for (int32_t i = 0; i < config.clients; ++i) {
    clients.push_back(std::make_unique<MixedClient>(config, port, token, i));
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
    if (std::string error = allotd.start(kMixedStartLimit); !error.empty()) {
      report.error = "allotd did not start: " + error;
    } else {
      std::fprintf(log, "allotd %d on port %d\n", allotd.pid(), allotd.port());
      report.error = drive(config, allotd.port(), allotd.admin_token(), report, log);
      allotd.stop(kMixedStopLimit);
    }
  }
  tools::remove_host_accounts(config.allotd, (work / "data").string(), log);
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
