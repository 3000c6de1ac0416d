#include "service/study/policy_comparison.h"

#include <cstdio>
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

Status check_study(const std::vector<TraceJob>& jobs, const std::vector<NamedPolicy>& policies,
                   const StudyOptions& options) {
  if (jobs.empty()) {
    return invalid_argument("no jobs to replay (an empty trace, or none in the time window)",
                            options.trace_origin);
  }
  if (policies.empty()) {
    return invalid_argument("a policy comparison needs at least one policy");
  }
  if (options.cycle && *options.cycle <= Duration()) {
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

std::string percent(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", ratio * 100);
  return text;
}

// Fails when more than the allowed share of jobs names a team the policy lacks.
Status check_unknown_teams(const SkippedJobs& skipped, int64_t jobs, const NamedPolicy& policy,
                           const StudyOptions& options) {
  int64_t unknown = 0;
  std::string namespaces;
  for (const auto& [name, count] : skipped.unknown_team) {
    unknown += count;
    namespaces += (namespaces.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")";
  }
  const double share = static_cast<double>(unknown) / static_cast<double>(jobs);
  if (!options.max_unknown_team_share || share <= *options.max_unknown_team_share) {
    return {};
  }
  return failed_precondition(
      std::to_string(unknown) + " of " + std::to_string(jobs) + " jobs (" + percent(share) +
          ", more than " + percent(*options.max_unknown_team_share) +
          ") name a team that the policy lacks: " + namespaces +
          "; the likely cause is the team prefix ('" + options.namespace_prefix +
          "', set by --team-prefix); --allow-skips replays anyway",
      origin_of(policy));
}

TraceArrivalOptions arrival_options(const StudyOptions& options) {
  TraceArrivalOptions arrival;
  arrival.namespace_prefix = options.namespace_prefix;
  arrival.load_factor = options.load_factor;
  return arrival;
}

Result<TraceArrivals> arrivals_for(const std::vector<TraceJob>& jobs, const NamedPolicy& policy,
                                   const StudyOptions& options) {
  Result<TraceArrivals> converted = trace_arrivals(jobs, policy.policy, arrival_options(options));
  if (!converted.ok()) {
    return located(converted.status(), options.trace_origin);
  }
  ALLOT_RETURN_IF_ERROR(
      check_unknown_teams(converted->skipped, static_cast<int64_t>(jobs.size()), policy, options));
  return converted;
}

Result<PolicyPreparation> prepare_policy(const std::vector<TraceJob>& jobs,
                                         const NamedPolicy& policy, const StudyOptions& options) {
  ALLOT_ASSIGN_OR_RETURN(TraceArrivals arrivals, arrivals_for(jobs, policy, options));
  PolicyPreparation prepared;
  prepared.name = policy.name;
  prepared.skipped = std::move(arrivals.skipped);
  Result<std::vector<UnfitJob>> unfit = unfit_jobs(jobs, policy.policy, arrival_options(options));
  if (!unfit.ok()) {
    return located(unfit.status(), origin_of(policy));
  }
  prepared.unfit = std::move(unfit).value();
  Result<Duration> cycle = simulation_cycle(policy.policy, options.cycle);
  if (!cycle.ok()) {
    return located(cycle.status(), origin_of(policy));
  }
  prepared.cycle = *cycle;
  prepared.cycle_overridden = options.cycle.has_value();
  return prepared;
}

Result<PolicyRun> run_policy(const std::vector<TraceJob>& jobs, const NamedPolicy& policy,
                             PolicyPreparation prepared, const StudyOptions& options) {
  ALLOT_ASSIGN_OR_RETURN(const TraceArrivals arrivals, arrivals_for(jobs, policy, options));
  SimulationOptions simulation;
  simulation.executor = options.executor;
  simulation.scheduler = replay_scheduler_options();
  if (options.on_progress) {
    simulation.on_progress = [&](int64_t arrived, int64_t total) {
      options.on_progress(policy.name, arrived, total);
    };
  }
  const double started = options.stopwatch ? options.stopwatch() : 0;
  Result<SimulationReport> report =
      run_simulation(policy.policy, arrivals.arrivals, {}, prepared.cycle, simulation);
  if (!report.ok()) {
    return located(report.status(), origin_of(policy));
  }
  PolicyRun run;
  run.runtime_s = options.stopwatch ? options.stopwatch() - started : 0;
  run.name = policy.name;
  run.summary = summarize_trace_run(*report, policy.policy);
  run.skipped = std::move(prepared.skipped);
  run.unfit = std::move(prepared.unfit);
  run.cycle = prepared.cycle;
  run.cycle_overridden = prepared.cycle_overridden;
  run.never_admitted = static_cast<int64_t>(report->never_admitted.size());
  run.cycles = report->cycles;
  return run;
}

}  // namespace

Result<std::vector<PolicyPreparation>> prepare_comparison(const std::vector<TraceJob>& jobs,
                                                          const std::vector<NamedPolicy>& policies,
                                                          const StudyOptions& options) {
  ALLOT_RETURN_IF_ERROR(check_study(jobs, policies, options));
  std::vector<PolicyPreparation> prepared;
  for (const NamedPolicy& policy : policies) {
    ALLOT_ASSIGN_OR_RETURN(PolicyPreparation one, prepare_policy(jobs, policy, options));
    prepared.push_back(std::move(one));
  }
  return prepared;
}

Result<PolicyComparison> compare_policies(const std::vector<TraceJob>& jobs,
                                          const std::vector<NamedPolicy>& policies,
                                          const StudyOptions& options) {
  ALLOT_ASSIGN_OR_RETURN(std::vector<PolicyPreparation> prepared,
                         prepare_comparison(jobs, policies, options));
  PolicyComparison comparison;
  comparison.jobs = static_cast<int64_t>(jobs.size());
  for (size_t i = 0; i < policies.size(); ++i) {
    ALLOT_ASSIGN_OR_RETURN(PolicyRun run,
                           run_policy(jobs, policies[i], std::move(prepared[i]), options));
    comparison.runs.push_back(std::move(run));
  }
  return comparison;
}

}  // namespace allot
