#include "cli/replay_command.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "api/manifest_parser.h"
#include "api/workload_json.h"
#include "base/quantity.h"
#include "cli/api_paths.h"
#include "cli/exit_codes.h"
#include "cli/replay_metrics.h"
#include "cli/server_verb.h"
#include "service/simulation/arrival_stream.h"
#include "service/simulation/simulation_runner.h"

namespace allot::cli {
namespace {

using Clock = std::chrono::steady_clock;

int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string workload_body(const Arrival& arrival) {
  WorkloadSpec spec = arrival.workload.spec;
  spec.command.clear();
  spec.sleep = arrival.runtime;
  const nlohmann::json body = {
      {"apiVersion", "allot/v1"},
      {"kind", "Workload"},
      {"metadata",
       {{"name", arrival.workload.meta.name}, {"namespace", arrival.workload.meta.namespace_name}}},
      {"spec", workload_spec_to_json(spec)}};
  return body.dump();
}

struct ReplayFlags {
  std::string scenario;
  std::string server;
  std::string output = "table";
  int submitters = 16;
  int sample_ms = 100;
};

class ReplayCommand final : public Command {
 public:
  void configure(CLI::App& app) override {
    app.add_option("--scenario", flags_.scenario, "policy and Scenario file")->required();
    app.add_option("-o,--output", flags_.output, "table or json")
        ->check(CLI::IsMember({"table", "json"}));
    app.add_option("--submitters", flags_.submitters, "concurrent submitting clients")
        ->check(CLI::Range(1, 64));
    app.add_option("--sample-interval-ms", flags_.sample_ms, "how often usage is sampled")
        ->check(CLI::Range(10, 10000));
    add_server_flag(app, flags_.server);
  }

  int run(CliIo& io) override {
    const Status status = replay(io);
    return status.ok() ? kExitOk : report_error(io, status);
  }

 private:
  Status replay(CliIo& io);
  Status submit_all(const ArrivalStream& arrivals, Clock::time_point start);
  void sample_usage(Clock::time_point start, const std::atomic<bool>& done);
  Result<std::vector<nlohmann::json>> fetch_all(ApiClient& client) const;
  Status wait_until_finished(ApiClient& client) const;

  ReplayFlags flags_;
  std::mutex samples_mu_;
  std::vector<UsageSample> samples_;
  std::string primary_ = "cpu";
};

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found("cannot read the scenario file", path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Status ReplayCommand::submit_all(const ArrivalStream& arrivals, Clock::time_point start) {
  std::atomic<size_t> next{0};
  std::mutex error_mu;
  Status first_error;
  std::vector<std::thread> threads;
  for (int t = 0; t < flags_.submitters; ++t) {
    threads.emplace_back([&] {
      Result<ApiClient> client = open_api_client(flags_.server);
      for (size_t i = next++; client.ok() && i < arrivals.size(); i = next++) {
        const Arrival& arrival = arrivals.arrivals()[i];
        std::this_thread::sleep_until(start + std::chrono::milliseconds(arrival.at.ms()));
        const Result<ApiResponse> sent =
            client->post(workloads_path(arrival.workload.meta.namespace_name),
                         workload_body(arrival), kJsonContentType);
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

void ReplayCommand::sample_usage(Clock::time_point start, const std::atomic<bool>& done) {
  Result<ApiClient> client = open_api_client(flags_.server);
  const Resource resource = primary_ == "gpu" ? Resource::kGpu : Resource::kCpu;
  for (auto tick = Clock::now(); client.ok() && !done;
       tick += std::chrono::milliseconds(flags_.sample_ms)) {
    std::this_thread::sleep_until(tick);
    const Result<ApiResponse> top = client->get(std::string(kTopPath));
    if (!top.ok()) continue;
    const Result<nlohmann::json> json = top->json();
    if (!json.ok()) continue;
    UsageSample sample;
    sample.t_s = std::chrono::duration<double>(Clock::now() - start).count();
    std::map<std::string, std::pair<int64_t, int64_t>> totals;  // team -> usage, nominal
    for (const auto& row : (*json)["teams"]) {
      if (row.value("resource", "") != primary_) continue;
      auto& [usage, nominal] = totals[row.value("team", "")];
      const Result<int64_t> used = parse_quantity(resource, row.value("usage", "0"));
      const Result<int64_t> owned = parse_quantity(resource, row.value("nominal", "0"));
      usage += used.ok() ? *used : 0;
      nominal += owned.ok() ? *owned : 0;
    }
    for (const auto& [team, amounts] : totals) {
      if (amounts.second > 0) {
        sample.usage[team] =
            static_cast<double>(amounts.first) / static_cast<double>(amounts.second);
      }
    }
    std::lock_guard lock(samples_mu_);
    samples_.push_back(std::move(sample));
  }
}

Status ReplayCommand::wait_until_finished(ApiClient& client) const {
  const std::string path = with_query(
      "/api/v1/workloads", {{"phase", "Pending,Admitted,Running,Preempted"}, {"limit", "1"}});
  while (true) {
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse answer, client.get(path));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json json, answer.json());
    if (json["items"].empty()) return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(flags_.sample_ms));
  }
}

Result<std::vector<nlohmann::json>> ReplayCommand::fetch_all(ApiClient& client) const {
  std::vector<nlohmann::json> items;
  std::string token;
  do {
    QueryParams params = {{"limit", "10000"}};
    if (!token.empty()) params.emplace_back("continue", token);
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse answer,
                           client.get(with_query("/api/v1/workloads", params)));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json page, answer.json());
    for (const auto& item : page["items"]) items.push_back(item);
    token = page.value("continue", "");
  } while (!token.empty());
  return items;
}

Result<SimulationReport> simulate(const ManifestBundle& bundle) {
  ALLOT_RETURN_IF_ERROR(validate_policy(bundle.policy));
  return run_simulation(bundle.policy, *bundle.scenario);
}

double lowest_usage(const SimulationReport& report) {
  double lowest = report.teams.empty() ? 0 : 1e18;
  for (const TeamMetrics& team : report.teams) lowest = std::min(lowest, team.usage);
  return lowest;
}

nlohmann::json comparison_json(const ReplayMetrics& real, const SimulationReport& sim) {
  nlohmann::json classes = nlohmann::json::object();
  for (const ClassMetrics& cls : sim.classes) {
    auto it = real.class_tta_s.find(cls.name);
    classes[cls.name] = {{"allotd_tta_mean_s", it == real.class_tta_s.end() ? 0 : it->second},
                         {"simulation_tta_mean_s", cls.tta_mean_s}};
  }
  return {{"allotd",
           {{"workloads", real.workloads},
            {"finished", real.finished},
            {"wall_s", real.wall_s},
            {"lowest_team_usage", real.lowest_team_usage},
            {"preemptions", real.preemptions}}},
          {"simulation",
           {{"workloads", sim.workloads.size()},
            {"wall_s", sim.wall_s},
            {"lowest_team_usage", lowest_usage(sim)},
            {"preemptions", sim.preemptions}}},
          {"classes", std::move(classes)}};
}

std::string cell(const nlohmann::json& value) {
  if (!value.is_number_float()) return value.dump();
  std::ostringstream text;
  text << std::fixed << std::setprecision(value.get<double>() < 10 ? 3 : 1) << value.get<double>();
  return text.str();
}

void print_table(const nlohmann::json& result, std::ostream& out) {
  const auto row = [&out](const std::string& name, const std::string& a, const std::string& b) {
    out << std::left << std::setw(26) << name << std::right << std::setw(12) << a << std::setw(12)
        << b << "\n";
  };
  row("", "allotd", "simulation");
  for (const char* key : {"workloads", "wall_s", "lowest_team_usage", "preemptions"}) {
    row(key, cell(result["allotd"][key]), cell(result["simulation"][key]));
  }
  for (const auto& [name, cls] : result["classes"].items()) {
    row("tta_mean_s " + name, cell(cls["allotd_tta_mean_s"]), cell(cls["simulation_tta_mean_s"]));
  }
}

Status ReplayCommand::replay(CliIo& io) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, read_text(flags_.scenario));
  ALLOT_ASSIGN_OR_RETURN(const ParsedManifests parsed,
                         parse_manifests_with_documents(text, {}, flags_.scenario));
  if (!parsed.bundle.scenario) {
    return invalid_argument("no Scenario document: nothing to replay", flags_.scenario);
  }
  ALLOT_ASSIGN_OR_RETURN(const ArrivalStream arrivals,
                         ArrivalStream::from_scenario(*parsed.bundle.scenario));
  std::string policy;
  for (const ManifestDocument& document : parsed.documents) {
    if (document.kind != "Scenario" && document.kind != "Workload") {
      policy += "---\n" + document.json.dump() + "\n";
    }
  }
  for (const NodePool& pool : parsed.bundle.policy.node_pools) {
    if (pool.resources.gpu() > 0) primary_ = "gpu";
  }
  ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(flags_.server));
  ALLOT_RETURN_IF_ERROR(client.post(std::string(kApplyPath), policy, kYamlContentType).status());
  io.err << "replaying " << arrivals.size() << " workloads in real time against "
         << client.base_url() << "\n";
  const int64_t start_ms = unix_ms_now();
  const Clock::time_point start = Clock::now();
  std::atomic<bool> done{false};
  std::thread sampler([&] { sample_usage(start, done); });
  Status outcome = submit_all(arrivals, start);
  if (outcome.ok()) outcome = wait_until_finished(client);
  done = true;
  sampler.join();
  ALLOT_RETURN_IF_ERROR(outcome);
  ALLOT_ASSIGN_OR_RETURN(const std::vector<nlohmann::json> workloads, fetch_all(client));
  ALLOT_ASSIGN_OR_RETURN(const ReplayMetrics real, replay_metrics(workloads, samples_, start_ms));
  ALLOT_ASSIGN_OR_RETURN(const SimulationReport sim, simulate(parsed.bundle));
  const nlohmann::json result = comparison_json(real, sim);
  if (flags_.output == "json") {
    io.out << result.dump(2) << "\n";
  } else {
    print_table(result, io.out);
  }
  return {};
}

}  // namespace

std::unique_ptr<Command> make_replay_command() { return std::make_unique<ReplayCommand>(); }

}  // namespace allot::cli
