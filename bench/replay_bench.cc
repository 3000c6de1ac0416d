#include "bench/replay_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "api/manifest_parser.h"
#include "backends/sim/virtual_executor.h"
#include "base/quantity.h"
#include "bench/replay_metrics.h"
#include "bench/replay_references.h"
#include "bench/replay_report.h"
#include "bench/replay_workload.h"
#include "cli/client/api_client.h"
#include "cli/client/api_paths.h"
#include "cli/client/credentials.h"
#include "cli/client/server_address.h"
#include "service/simulation/arrival_stream.h"
#include "service/simulation/simulation_runner.h"

namespace allot::bench {
namespace {

using Clock = std::chrono::steady_clock;
using cli::ApiClient;
using cli::ApiResponse;

int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<ApiClient> open_client(const std::string& server) {
  ALLOT_ASSIGN_OR_RETURN(std::string url, cli::server_address(server));
  cli::ApiClientOptions options;
  ALLOT_ASSIGN_OR_RETURN(options.bearer_token, cli::bearer_token("", url));
  return ApiClient(std::move(url), options);
}

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found("cannot read the scenario file", path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One replay: the submitters, the usage sampler and what they collect.
class Replay {
 public:
  explicit Replay(const ReplayConfig& config) : config_(config) {}

  Result<nlohmann::json> run(std::FILE* log);

 private:
  Status submit_all(const ArrivalStream& arrivals, const Scenario& scenario,
                    Clock::time_point start);
  void sample_usage(Clock::time_point start, const std::atomic<bool>& done);
  Result<std::vector<nlohmann::json>> fetch_all(ApiClient& client) const;
  Status wait_until_finished(ApiClient& client) const;

  const ReplayConfig& config_;
  std::mutex samples_mu_;
  std::vector<UsageSample> samples_;
  std::string primary_ = "cpu";
};

Status Replay::submit_all(const ArrivalStream& arrivals, const Scenario& scenario,
                          Clock::time_point start) {
  std::atomic<size_t> next{0};
  std::mutex error_mu;
  Status first_error;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(config_.submitters));
  for (int t = 0; t < config_.submitters; ++t) {
    threads.emplace_back([&] {
      Result<ApiClient> client = open_client(config_.server);
      for (size_t i = next++; client.ok() && i < arrivals.size(); i = next++) {
        const Arrival& arrival = arrivals.arrivals()[i];
        std::this_thread::sleep_until(start + std::chrono::milliseconds(arrival.at.ms()));
        const Result<ApiResponse> sent = client->post(
            cli::workloads_path(arrival.workload.meta.namespace_name),
            replay_workload_body(arrival,
                                 pod_latencies_of(scenario, arrival.workload.spec.priority_class)),
            cli::kJsonContentType);
        if (!sent.ok()) {
          std::lock_guard lock(error_mu);
          if (first_error.ok()) first_error = sent.status();
        }
      }
      if (!client.ok()) {
        std::lock_guard lock(error_mu);
        first_error = client.status();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return first_error;
}

// Team -> usage / nominal of the primary resource, from GET /api/v1/top.
std::map<std::string, double> usage_shares(const nlohmann::json& top, const std::string& primary) {
  const Resource resource = primary == "gpu" ? Resource::kGpu : Resource::kCpu;
  std::map<std::string, std::pair<int64_t, int64_t>> totals;  // team -> usage, nominal
  for (const auto& row : top["teams"]) {
    if (row.value("resource", "") != primary) continue;
    auto& [usage, nominal] = totals[row.value("team", "")];
    const Result<int64_t> used = parse_quantity(resource, row.value("usage", "0"));
    const Result<int64_t> owned = parse_quantity(resource, row.value("nominal", "0"));
    usage += used.ok() ? *used : 0;
    nominal += owned.ok() ? *owned : 0;
  }
  std::map<std::string, double> shares;
  for (const auto& [team, amounts] : totals) {
    if (amounts.second > 0) {
      shares[team] = static_cast<double>(amounts.first) / static_cast<double>(amounts.second);
    }
  }
  return shares;
}

void Replay::sample_usage(Clock::time_point start, const std::atomic<bool>& done) {
  Result<ApiClient> client = open_client(config_.server);
  for (auto tick = Clock::now(); client.ok() && !done;
       tick += std::chrono::milliseconds(config_.sample_ms)) {
    std::this_thread::sleep_until(tick);
    const Result<ApiResponse> top = client->get(std::string(cli::kTopPath));
    if (!top.ok()) continue;
    const Result<nlohmann::json> top_json = top->json();
    if (!top_json.ok()) continue;
    UsageSample sample;
    sample.t_s = std::chrono::duration<double>(Clock::now() - start).count();
    sample.usage = usage_shares(*top_json, primary_);
    std::lock_guard lock(samples_mu_);
    samples_.push_back(std::move(sample));
  }
}

Status Replay::wait_until_finished(ApiClient& client) const {
  const std::string path = cli::with_query(
      "/api/v1/workloads", {{"phase", "Pending,Admitted,Running,Preempted"}, {"limit", "1"}});
  while (true) {
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse answer, client.get(path));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json top_json, answer.json());
    if (top_json["items"].empty()) return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(config_.sample_ms));
  }
}

Result<std::vector<nlohmann::json>> Replay::fetch_all(ApiClient& client) const {
  std::vector<nlohmann::json> items;
  std::string token;
  do {
    cli::QueryParams params = {{"limit", "10000"}};
    if (!token.empty()) params.emplace_back("continue", token);
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse answer,
                           client.get(cli::with_query("/api/v1/workloads", params)));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json page, answer.json());
    for (const auto& item : page["items"]) items.push_back(item);
    token = page.value("continue", "");
  } while (!token.empty());
  return items;
}

Result<SimulationReport> simulate(const ManifestBundle& bundle, const Scenario& scenario) {
  ALLOT_RETURN_IF_ERROR(validate_policy(bundle.policy));
  SimulationOptions options;
  options.executor = sim::virtual_executor_factory();
  return run_simulation(bundle.policy, scenario, options);
}

// The scenario's simulation, and, when the scenario leaves the pods' start
// latency out, the same scenario with the time allotd's runs held their
// capacity beyond their work (replay_metrics.h) as the start latency: in
// the simulation of a scenario without latencies every pod starts and ends on
// the cycle's grid, which no real backend does (docs/benchmarks.md, "Kueue's
// baseline through allotd, fourth step"). Then once more with each class's
// own held time: the launches of a class that arrives in bursts queue, a rare
// class's do not, so one latency for all models neither.
Result<ReplaySimulations> simulate_all(const ManifestBundle& bundle, const ReplayMetrics& real) {
  ReplaySimulations simulations;
  ALLOT_ASSIGN_OR_RETURN(simulations.scenario, simulate(bundle, *bundle.scenario));
  if (const std::optional<Scenario> at_latency =
          scenario_at_start_latency(*bundle.scenario, real)) {
    ALLOT_ASSIGN_OR_RETURN(simulations.at_start_latency, simulate(bundle, *at_latency));
    simulations.start_latency_ms = at_latency->pod_start_latency->ms();
  }
  if (const std::optional<Scenario> at_class =
          scenario_at_class_latencies(*bundle.scenario, real)) {
    ALLOT_ASSIGN_OR_RETURN(simulations.at_class_latencies, simulate(bundle, *at_class));
    for (const auto& [name, latency] : at_class->pod_start_latency_by_class) {
      simulations.class_latencies_ms[name] = latency.ms();
    }
  }
  return simulations;
}

// "namespace/name" -> runtime (ms) of every arrival.
std::map<std::string, int64_t> runtimes_ms(const ArrivalStream& arrivals) {
  std::map<std::string, int64_t> runtimes;
  for (const Arrival& arrival : arrivals.arrivals()) {
    runtimes[arrival.workload.meta.namespace_name + "/" + arrival.workload.meta.name] =
        arrival.runtime.ms();
  }
  return runtimes;
}

// The scenario's policy documents, as one YAML stream for POST /api/v1/apply.
std::string policy_documents(const ParsedManifests& parsed) {
  std::string policy;
  for (const ManifestDocument& document : parsed.documents) {
    if (document.kind != "Scenario" && document.kind != "Workload") {
      policy += "---\n" + document.json.dump() + "\n";
    }
  }
  return policy;
}

Result<nlohmann::json> Replay::run(std::FILE* log) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, read_text(config_.scenario));
  ALLOT_ASSIGN_OR_RETURN(const ParsedManifests parsed,
                         parse_manifests_with_documents(text, {}, config_.scenario));
  if (!parsed.bundle.scenario) {
    return invalid_argument("no Scenario document: nothing to replay", config_.scenario);
  }
  ALLOT_ASSIGN_OR_RETURN(const ArrivalStream arrivals,
                         ArrivalStream::from_scenario(*parsed.bundle.scenario));
  for (const NodePool& pool : parsed.bundle.policy.node_pools) {
    if (pool.resources.gpu() > 0) primary_ = "gpu";
  }
  ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_client(config_.server));
  ALLOT_RETURN_IF_ERROR(
      client.post(std::string(cli::kApplyPath), policy_documents(parsed), cli::kYamlContentType)
          .status());
  std::fprintf(log, "replaying %zu workloads in real time against %s\n", arrivals.size(),
               client.base_url().c_str());
  const int64_t start_ms = unix_ms_now();
  const Clock::time_point start = Clock::now();
  std::atomic<bool> done{false};
  std::thread sampler([&] { sample_usage(start, done); });
  const Scenario& scenario = *parsed.bundle.scenario;
  Status outcome = submit_all(arrivals, scenario, start);
  if (outcome.ok()) outcome = wait_until_finished(client);
  done = true;
  sampler.join();
  ALLOT_RETURN_IF_ERROR(outcome);
  ALLOT_ASSIGN_OR_RETURN(const std::vector<nlohmann::json> workloads, fetch_all(client));
  ALLOT_ASSIGN_OR_RETURN(ReplayMetrics real, replay_metrics(workloads, samples_, start_ms));
  const std::map<std::string, int64_t> runtimes = runtimes_ms(arrivals);
  ALLOT_ASSIGN_OR_RETURN(real.held_beyond_runtime_ms,
                         median_held_beyond_runtime_ms(workloads, runtimes));
  ALLOT_ASSIGN_OR_RETURN(real.class_held_beyond_runtime_ms,
                         held_beyond_runtime_ms_by_class(workloads, runtimes));
  ALLOT_ASSIGN_OR_RETURN(const ReplaySimulations simulations, simulate_all(parsed.bundle, real));
  return replay_report_json(real, simulations);
}

}  // namespace

Result<nlohmann::json> run_replay(const ReplayConfig& config, std::FILE* log) {
  Replay replay(config);
  return replay.run(log);
}

}  // namespace allot::bench
