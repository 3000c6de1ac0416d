#include "service/study/policy_comparison.h"

#include <set>
#include <utility>

#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

const std::string& origin_of(const NamedPolicy& policy) {
  return policy.origin.empty() ? policy.name : policy.origin;
}

// Prefixes the error's location with where it came from.
Status located(const Status& status, const std::string& where) {
  if (status.ok()) {
    return status;
  }
  const std::string details = status.details().empty() ? where : where + ": " + status.details();
  return {status.code(), status.message(), details};
}

Status check_study(const std::vector<NamedPolicy>& policies, const StudyOptions& options) {
  if (policies.empty()) {
    return invalid_argument("a policy comparison needs at least one policy");
  }
  if (options.cycle <= Duration()) {
    return invalid_argument("the scheduling cycle must be positive", "cycle");
  }
  std::set<std::string> names;
  for (const NamedPolicy& policy : policies) {
    if (!names.insert(policy.name).second) {
      return invalid_argument("two policies are named '" + policy.name + "'", origin_of(policy));
    }
  }
  for (const NamedPolicy& policy : policies) {
    ALLOT_RETURN_IF_ERROR(located(validate_policy(policy.policy), origin_of(policy)));
  }
  return {};
}

Result<PolicyRun> run_policy(const std::vector<TraceJob>& jobs, const NamedPolicy& policy,
                             const StudyOptions& options) {
  TraceArrivalOptions arrival_options;
  arrival_options.namespace_prefix = options.namespace_prefix;
  Result<TraceArrivals> converted = trace_arrivals(jobs, policy.policy, arrival_options);
  if (!converted.ok()) {
    return located(converted.status(), options.trace_origin);
  }
  TraceArrivals& arrivals = *converted;
  SimulationOptions simulation;
  simulation.executor = options.executor;
  if (options.on_progress) {
    simulation.on_progress = [&](int64_t arrived, int64_t total) {
      options.on_progress(policy.name, arrived, total);
    };
  }
  const double started = options.stopwatch ? options.stopwatch() : 0;
  Result<SimulationReport> report =
      run_simulation(policy.policy, arrivals.arrivals, {}, options.cycle, simulation);
  if (!report.ok()) {
    return located(report.status(), origin_of(policy));
  }
  PolicyRun run;
  run.runtime_s = options.stopwatch ? options.stopwatch() - started : 0;
  run.name = policy.name;
  run.summary = summarize_trace_run(*report, policy.policy);
  run.skipped = std::move(arrivals.skipped);
  run.never_admitted = static_cast<int64_t>(report->never_admitted.size());
  run.cycles = report->cycles;
  return run;
}

}  // namespace

Result<PolicyComparison> compare_policies(const std::vector<TraceJob>& jobs,
                                          const std::vector<NamedPolicy>& policies,
                                          const StudyOptions& options) {
  ALLOT_RETURN_IF_ERROR(check_study(policies, options));
  PolicyComparison comparison;
  comparison.jobs = static_cast<int64_t>(jobs.size());
  for (const NamedPolicy& policy : policies) {
    ALLOT_ASSIGN_OR_RETURN(PolicyRun run, run_policy(jobs, policy, options));
    comparison.runs.push_back(std::move(run));
  }
  return comparison;
}

}  // namespace allot
