#include "cli/simulate_command.h"

#include <chrono>
#include <fstream>
#include <string>

#include <CLI/CLI.hpp>

#include "api/manifest_parser.h"
#include "base/result.h"
#include "cli/exit_codes.h"
#include "cli/simulation_output.h"
#include "model/policy.h"
#include "service/simulation_runner.h"
#include "service/workload_csv.h"

namespace allot::cli {
namespace {

Result<SimulationReport> simulate_file(const std::string& path, CliIo& io) {
  ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, load_manifest_file(path));
  if (!bundle.scenario) {
    return invalid_argument("no Scenario document: nothing to simulate", path);
  }
  if (!bundle.workloads.empty()) {
    io.err << "warning: " << bundle.workloads.size()
           << " Workload document(s) ignored: only the Scenario's arrivals are simulated\n";
  }
  ALLOT_RETURN_IF_ERROR(validate_policy(bundle.policy));
  return run_simulation(bundle.policy, *bundle.scenario);
}

Status write_file(const std::string& path, const std::string& content) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << content;
  file.close();
  if (!file) {
    return {ErrorCode::kUnavailable, "cannot write the workloads CSV", path};
  }
  return {};
}

class SimulateCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand
        .add_option("-f,--scenario", scenario_path_,
                    "YAML file with the policy and one Scenario document")
        ->required();
    subcommand.add_option("-o,--output", output_, "Output format: table (default) or json")
        ->check(CLI::IsMember({"table", "json"}));
    subcommand.add_option("--workloads", workloads_path_,
                          "Also write one CSV row per workload to this file");
  }

  int run(CliIo& io) override {
    const auto started = std::chrono::steady_clock::now();
    Result<SimulationReport> report = simulate_file(scenario_path_, io);
    const double runtime_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!report.ok()) {
      io.err << "error: " << report.status().to_string() << "\n";
      return exit_code_for(report.status());
    }
    if (!workloads_path_.empty()) {
      const Status written = write_file(workloads_path_, workloads_csv(*report));
      if (!written.ok()) {
        io.err << "error: " << written.to_string() << "\n";
        return exit_code_for(written);
      }
    }
    if (output_ == "json") {
      io.out << simulation_json(*report, runtime_s).dump(2) << "\n";
    } else {
      io.out << simulation_table(*report, runtime_s);
    }
    return kExitOk;
  }

 private:
  std::string scenario_path_;
  std::string output_ = "table";
  std::string workloads_path_;
};

}  // namespace

std::unique_ptr<Command> make_simulate_command() { return std::make_unique<SimulateCommand>(); }

}  // namespace allot::cli
