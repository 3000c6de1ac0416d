#include "cli/trace_simulation.h"

#include <chrono>
#include <filesystem>
#include <set>
#include <utility>

#include "api/manifest_parser.h"
#include "model/policy.h"
#include "service/simulation/simulation_runner.h"

namespace allot::cli {
namespace {

std::string policy_name(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

// Prefixes the error's location with the policy file it came from.
Status in_file(const Status& status, const std::string& path) {
  if (status.ok()) {
    return status;
  }
  const std::string where = status.details().empty() ? path : path + ": " + status.details();
  return {status.code(), status.message(), where};
}

Result<PolicyRun> run_policy(const std::string& path, const std::vector<TraceJob>& jobs,
                             const TraceSimulationRequest& request,
                             const TraceArrivalOptions& options) {
  ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, load_manifest_file(path));
  ALLOT_RETURN_IF_ERROR(in_file(validate_policy(bundle.policy), path));
  Result<TraceArrivals> converted = trace_arrivals(jobs, bundle.policy, options);
  if (!converted.ok()) {
    return in_file(converted.status(), request.trace_path);
  }
  TraceArrivals& arrivals = *converted;
  SimulationOptions simulation;
  if (request.on_progress) {
    simulation.on_progress = [&](int64_t arrived, int64_t total) {
      request.on_progress(policy_name(path), arrived, total);
    };
  }
  const auto started = std::chrono::steady_clock::now();
  Result<SimulationReport> report =
      run_simulation(bundle.policy, arrivals.arrivals, {}, request.cycle, simulation);
  if (!report.ok()) {
    return in_file(report.status(), path);
  }
  PolicyRun run;
  run.runtime_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.name = policy_name(path);
  run.summary = summarize_trace_run(*report, bundle.policy);
  run.skipped = std::move(arrivals.skipped);
  run.never_admitted = static_cast<int64_t>(report->never_admitted.size());
  run.cycles = report->cycles;
  return run;
}

}  // namespace

Result<TraceComparison> run_trace_simulation(const TraceSimulationRequest& request) {
  if (request.policy_paths.empty()) {
    return invalid_argument("a trace replay needs at least one --policy");
  }
  if (request.cycle <= Duration()) {
    return invalid_argument("the scheduling cycle must be positive", "--cycle");
  }
  std::set<std::string> names;
  for (const std::string& path : request.policy_paths) {
    if (!names.insert(policy_name(path)).second) {
      return invalid_argument("two policies are named '" + policy_name(path) + "'", path);
    }
  }
  ALLOT_ASSIGN_OR_RETURN(const std::vector<TraceJob> jobs,
                         load_trace_file(request.trace_path, request.format, request.window));
  TraceArrivalOptions options;
  options.namespace_prefix = request.namespace_prefix.value_or(
      request.format == TraceFormat::kPhilly ? std::string("vc-") : std::string());
  TraceComparison comparison;
  comparison.jobs_read = static_cast<int64_t>(jobs.size());
  for (const std::string& path : request.policy_paths) {
    ALLOT_ASSIGN_OR_RETURN(PolicyRun run, run_policy(path, jobs, request, options));
    comparison.runs.push_back(std::move(run));
  }
  return comparison;
}

}  // namespace allot::cli
