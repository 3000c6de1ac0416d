#include "cli/verbs/simulate_command.h"

#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <unistd.h>

#include "api/manifest_parser.h"
#include "base/result.h"
#include "cli/output/html_report.h"
#include "cli/output/progress_bar.h"
#include "cli/output/simulation_output.h"
#include "cli/output/trace_output.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/trace_study.h"
#include "model/policy.h"
#include "service/simulation/simulation_runner.h"
#include "service/simulation/workload_csv.h"

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
  SimulationOptions options;
  options.executor = io.simulator;
  return run_simulation(bundle.policy, *bundle.scenario, options);
}

Status write_file(const std::string& path, const std::string& content, const std::string& what) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << content;
  file.close();
  if (!file) {
    return {ErrorCode::kUnavailable, "cannot write the " + what, path};
  }
  return {};
}

// Command-line values of a trace replay, before they are parsed.
struct TraceFlags {
  std::string trace_path;
  std::string format;
  std::vector<std::string> policy_paths;
  std::string from;
  std::string to;
  std::string cycle = "10s";
  std::optional<std::string> team_prefix;
  std::string report_path;  // --report: an HTML page comparing the policies
  bool progress = false;    // --progress: draw the bar even when stderr is no terminal
};

Result<TraceStudyRequest> trace_request(const TraceFlags& flags) {
  TraceStudyRequest request;
  request.trace_path = flags.trace_path;
  if (flags.format.empty()) {
    return invalid_argument("--trace needs --format philly|csv");
  }
  ALLOT_ASSIGN_OR_RETURN(request.format, parse_trace_format(flags.format));
  request.policy_paths = flags.policy_paths;
  if (!flags.from.empty()) {
    Result<Timestamp> from = parse_trace_time(flags.from, request.format);
    if (!from.ok()) {
      return from.status().with_context("--from");
    }
    request.window.from = *from;
  }
  if (!flags.to.empty()) {
    Result<Timestamp> to = parse_trace_time(flags.to, request.format);
    if (!to.ok()) {
      return to.status().with_context("--to");
    }
    request.window.to = *to;
  }
  Result<Duration> cycle = parse_duration(flags.cycle);
  if (!cycle.ok()) {
    return cycle.status().with_context("--cycle");
  }
  request.cycle = *cycle;
  request.namespace_prefix = flags.team_prefix;
  return request;
}

// The bar is for people watching a terminal: never mixed into JSON output
// or a redirected stderr unless asked for.
bool show_progress(const TraceFlags& flags, const std::string& output) {
  return flags.progress || (output != "json" && isatty(STDERR_FILENO) == 1);
}

Result<PolicyComparison> replay_with_progress(const TraceFlags& flags, const std::string& output,
                                              CliIo& io) {
  ALLOT_ASSIGN_OR_RETURN(TraceStudyRequest request, trace_request(flags));
  ProgressBar bar(io.err);
  std::string current;
  if (show_progress(flags, output)) {
    request.on_progress = [&](const std::string& policy, int64_t arrived, int64_t total) {
      if (policy != current) {
        bar.finish();
        current = policy;
      }
      bar.update("policy " + policy, arrived, total);
    };
  }
  request.executor = io.simulator;
  Result<PolicyComparison> comparison = run_trace_study(request);
  bar.finish();
  return comparison;
}

int replay_trace(const TraceFlags& flags, const std::string& output, CliIo& io) {
  Result<PolicyComparison> comparison = replay_with_progress(flags, output, io);
  if (!comparison.ok()) {
    io.err << "error: " << comparison.status().to_string() << "\n";
    return exit_code_for(comparison.status());
  }
  if (!flags.report_path.empty()) {
    const Status written =
        write_file(flags.report_path, trace_report_html(*comparison), "HTML report");
    if (!written.ok()) {
      io.err << "error: " << written.to_string() << "\n";
      return exit_code_for(written);
    }
  }
  if (output == "json") {
    io.out << trace_comparison_json(*comparison).dump(2) << "\n";
  } else {
    io.out << trace_comparison_table(*comparison);
  }
  return kExitOk;
}

class SimulateCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    CLI::Option* scenario = subcommand.add_option(
        "-f,--scenario", scenario_path_, "YAML file with the policy and one Scenario document");
    CLI::Option* trace =
        subcommand.add_option("--trace", trace_.trace_path, "Replay this job trace instead");
    scenario->excludes(trace);
    subcommand.add_option("--format", trace_.format, "Trace format: philly or csv")
        ->check(CLI::IsMember({"philly", "csv"}));
    subcommand.add_option("--policy", trace_.policy_paths,
                          "Policy YAML to replay the trace through (repeatable)");
    subcommand.add_option("--from", trace_.from,
                          "Replay jobs submitted at or after this time (philly: 2017-10-01)");
    subcommand.add_option("--to", trace_.to, "Replay jobs submitted before this time");
    subcommand.add_option("--cycle", trace_.cycle, "Scheduling cycle of a trace replay (10s)");
    subcommand.add_option("--team-prefix", trace_.team_prefix,
                          "Prefix of team namespaces made from trace teams (philly: vc-)");
    subcommand.add_option("--report", trace_.report_path,
                          "Trace replay: also write an HTML report comparing the policies");
    subcommand.add_flag("--progress", trace_.progress,
                        "Trace replay: show a progress bar on stderr even when it is no terminal");
    subcommand.add_option("-o,--output", output_, "Output format: table (default) or json")
        ->check(CLI::IsMember({"table", "json"}));
    subcommand.add_option("--workloads", workloads_path_,
                          "Also write one CSV row per workload to this file");
  }

  int run(CliIo& io) override {
    if (!trace_.trace_path.empty()) {
      return replay_trace(trace_, output_, io);
    }
    if (scenario_path_.empty()) {
      io.err << "error: simulate needs --scenario FILE or --trace FILE\n"
             << "Run 'allot simulate --help' for usage.\n";
      return kExitUsage;
    }
    const auto started = std::chrono::steady_clock::now();
    Result<SimulationReport> report = simulate_file(scenario_path_, io);
    const double runtime_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!report.ok()) {
      io.err << "error: " << report.status().to_string() << "\n";
      return exit_code_for(report.status());
    }
    if (!workloads_path_.empty()) {
      const Status written = write_file(workloads_path_, workloads_csv(*report), "workloads CSV");
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
  TraceFlags trace_;
};

}  // namespace

std::unique_ptr<Command> make_simulate_command() { return std::make_unique<SimulateCommand>(); }

}  // namespace allot::cli
