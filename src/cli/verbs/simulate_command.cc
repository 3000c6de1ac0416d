#include "cli/verbs/simulate_command.h"

#include <algorithm>
#include <charconv>
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
#include "cli/output/trace_sweep_output.h"
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
  std::string cycle;  // empty: each policy's scheduling.cycle
  std::string load_factors = "1";
  std::string capacity_factors = "1";
  bool allow_skips = false;
  std::optional<std::string> team_prefix;
  std::string report_path;  // --report: an HTML page comparing the policies
  bool progress = false;    // --progress: draw the bar even when stderr is no terminal
};

// One factor: a positive number or a fraction ("0.5", "1/3").
Result<double> parse_factor(std::string_view text) {
  const auto number = [](std::string_view part) -> std::optional<double> {
    double value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (error != std::errc() || end != part.data() + part.size()) {
      return std::nullopt;
    }
    return value;
  };
  const size_t slash = text.find('/');
  std::optional<double> value = number(text.substr(0, slash));
  if (value && slash != std::string_view::npos) {
    const std::optional<double> divisor = number(text.substr(slash + 1));
    value = divisor && *divisor > 0 ? std::optional<double>(*value / *divisor) : std::nullopt;
  }
  if (!value || !(*value > 0)) {
    return invalid_argument("not a positive number or fraction '" + std::string(text) + "'");
  }
  return *value;
}

// A comma-separated list of factors ("1,2,4").
Result<std::vector<double>> parse_factors(const std::string& text, const std::string& flag) {
  std::vector<double> factors;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    Result<double> factor = parse_factor(std::string_view(text).substr(start, comma - start));
    if (!factor.ok()) {
      return factor.status().with_context(flag);
    }
    factors.push_back(*factor);
    start = comma + 1;
  }
  return factors;
}

Result<Timestamp> window_bound(const std::string& text, TraceFormat format,
                               const std::string& flag) {
  Result<Timestamp> bound = parse_trace_time(text, format);
  if (!bound.ok()) {
    return bound.status().with_context(flag);
  }
  return bound;
}

Status parse_window(const TraceFlags& flags, TraceStudyRequest& request) {
  if (!flags.from.empty()) {
    ALLOT_ASSIGN_OR_RETURN(request.window.from,
                           window_bound(flags.from, *request.format, "--from"));
  }
  if (!flags.to.empty()) {
    ALLOT_ASSIGN_OR_RETURN(request.window.to, window_bound(flags.to, *request.format, "--to"));
  }
  return {};
}

Result<TraceStudyRequest> trace_request(const TraceFlags& flags) {
  TraceStudyRequest request;
  request.trace_path = flags.trace_path;
  if (flags.format.empty()) {
    ALLOT_ASSIGN_OR_RETURN(request.format, detect_trace_file_format(flags.trace_path));
  } else {
    ALLOT_ASSIGN_OR_RETURN(request.format, parse_trace_format(flags.format));
  }
  request.policy_paths = flags.policy_paths;
  ALLOT_RETURN_IF_ERROR(parse_window(flags, request));
  if (!flags.cycle.empty()) {
    Result<Duration> cycle = parse_duration(flags.cycle);
    if (!cycle.ok()) {
      return cycle.status().with_context("--cycle");
    }
    request.cycle = *cycle;
  }
  ALLOT_ASSIGN_OR_RETURN(request.load_factors, parse_factors(flags.load_factors, "--load-factor"));
  ALLOT_ASSIGN_OR_RETURN(request.capacity_factors,
                         parse_factors(flags.capacity_factors, "--capacity-factor"));
  if (flags.allow_skips) {
    request.max_unknown_team_share.reset();
  }
  request.namespace_prefix = flags.team_prefix;
  return request;
}

// The bar is for people watching a terminal: never mixed into JSON output
// or a redirected stderr unless asked for.
bool show_progress(const TraceFlags& flags, const std::string& output) {
  return flags.progress || (output != "json" && isatty(STDERR_FILENO) == 1);
}

Result<StudySweep> replay_with_progress(const TraceFlags& flags, const std::string& output,
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
  request.on_prepared = [&](double capacity_factor, const std::vector<PolicyPreparation>& found) {
    io.err << trace_warnings_text(capacity_factor, found);
  };
  request.executor = io.simulator;
  Result<StudySweep> sweep = run_trace_study(request);
  bar.finish();
  return sweep;
}

int replay_trace(const TraceFlags& flags, const std::string& output, CliIo& io) {
  Result<StudySweep> sweep = replay_with_progress(flags, output, io);
  if (!sweep.ok()) {
    io.err << "error: " << sweep.status().to_string() << "\n";
    return exit_code_for(sweep.status());
  }
  if (!flags.report_path.empty()) {
    const Status written = write_file(flags.report_path, trace_report_html(*sweep), "HTML report");
    if (!written.ok()) {
      io.err << "error: " << written.to_string() << "\n";
      return exit_code_for(written);
    }
  }
  if (output == "json") {
    io.out << trace_sweep_json(*sweep).dump(2) << "\n";
  } else {
    io.out << trace_sweep_table(*sweep);
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
    subcommand
        .add_option("--format", trace_.format,
                    "Trace format: philly or csv (default: from the header)")
        ->check(CLI::IsMember({"philly", "csv"}));
    subcommand.add_option("--policy", trace_.policy_paths,
                          "Policy YAML to replay the trace through (repeatable)");
    subcommand.add_option("--from", trace_.from,
                          "Replay jobs submitted at or after this time (philly: 2017-10-01)");
    subcommand.add_option("--to", trace_.to, "Replay jobs submitted before this time");
    subcommand.add_option("--cycle", trace_.cycle,
                          "Scheduling cycle of a trace replay (default: each policy's)");
    subcommand.add_option("--load-factor", trace_.load_factors,
                          "Compress the trace's inter-arrival times by X (a list sweeps: 1,2,4)");
    subcommand.add_option("--capacity-factor", trace_.capacity_factors,
                          "Scale every NodePool and quota by Y, in whole nodes (1/3, or 0.5,1)");
    subcommand.add_flag("--allow-skips", trace_.allow_skips,
                        "Replay even when over 1% of jobs name a team the policy lacks");
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
