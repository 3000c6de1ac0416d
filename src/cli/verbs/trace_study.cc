#include "cli/verbs/trace_study.h"

#include <chrono>
#include <filesystem>
#include <set>
#include <utility>

#include "api/manifest_parser.h"
#include "service/study/capacity_scaling.h"

namespace allot::cli {
namespace {

std::string policy_name(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

Status check_factors(const std::vector<double>& factors, const std::string& flag) {
  if (factors.empty()) {
    return invalid_argument("at least one value is needed", flag);
  }
  std::set<double> seen;
  for (const double factor : factors) {
    if (!seen.insert(factor).second) {
      return invalid_argument("a value is given twice", flag);
    }
  }
  return {};
}

Status check_flags(const TraceStudyRequest& request) {
  if (request.policy_paths.empty()) {
    return invalid_argument("a trace replay needs at least one --policy");
  }
  if (request.cycle && *request.cycle <= Duration()) {
    return invalid_argument("the scheduling cycle must be positive", "--cycle");
  }
  ALLOT_RETURN_IF_ERROR(check_factors(request.load_factors, "--load-factor"));
  ALLOT_RETURN_IF_ERROR(check_factors(request.capacity_factors, "--capacity-factor"));
  std::set<std::string> names;
  for (const std::string& path : request.policy_paths) {
    if (!names.insert(policy_name(path)).second) {
      return invalid_argument("two policies are named '" + policy_name(path) + "'", path);
    }
  }
  return {};
}

Result<std::vector<NamedPolicy>> load_policies(const std::vector<std::string>& paths) {
  std::vector<NamedPolicy> policies;
  for (const std::string& path : paths) {
    ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, load_manifest_file(path));
    policies.push_back({policy_name(path), std::move(bundle.policy), path});
  }
  return policies;
}

Result<std::vector<NamedPolicy>> scaled(const std::vector<NamedPolicy>& policies, double factor) {
  std::vector<NamedPolicy> result;
  for (const NamedPolicy& policy : policies) {
    Result<Policy> scaled_policy = scale_capacity(policy.policy, factor);
    if (!scaled_policy.ok()) {
      return scaled_policy.status().with_context("--capacity-factor");
    }
    result.push_back({policy.name, std::move(scaled_policy).value(), policy.origin});
  }
  return result;
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

StudyOptions study_options(const TraceStudyRequest& request, TraceFormat format) {
  StudyOptions options;
  options.cycle = request.cycle;
  options.max_unknown_team_share = request.max_unknown_team_share;
  options.namespace_prefix = request.namespace_prefix.value_or(
      format == TraceFormat::kPhilly ? std::string("vc-") : std::string());
  options.trace_origin = request.trace_path;
  options.on_progress = request.on_progress;
  options.stopwatch = steady_seconds;
  options.executor = request.executor;
  return options;
}

}  // namespace

Result<StudySweep> run_trace_study(const TraceStudyRequest& request) {
  ALLOT_RETURN_IF_ERROR(check_flags(request));
  TraceFormat format = TraceFormat::kCsv;
  if (request.format) {
    format = *request.format;
  } else {
    ALLOT_ASSIGN_OR_RETURN(format, detect_trace_file_format(request.trace_path));
  }
  ALLOT_ASSIGN_OR_RETURN(const std::vector<TraceJob> jobs,
                         load_trace_file(request.trace_path, format, request.window));
  ALLOT_ASSIGN_OR_RETURN(const std::vector<NamedPolicy> policies,
                         load_policies(request.policy_paths));
  StudyOptions options = study_options(request, format);
  std::vector<std::vector<NamedPolicy>> by_capacity;
  for (const double capacity : request.capacity_factors) {
    ALLOT_ASSIGN_OR_RETURN(std::vector<NamedPolicy> scaled_policies, scaled(policies, capacity));
    options.load_factor = request.load_factors.front();
    ALLOT_ASSIGN_OR_RETURN(const std::vector<PolicyPreparation> prepared,
                           prepare_comparison(jobs, scaled_policies, options));
    if (request.on_prepared) {
      request.on_prepared(capacity, prepared);
    }
    by_capacity.push_back(std::move(scaled_policies));
  }
  StudySweep sweep;
  for (size_t c = 0; c < request.capacity_factors.size(); ++c) {
    for (const double load : request.load_factors) {
      options.load_factor = load;
      ALLOT_ASSIGN_OR_RETURN(PolicyComparison comparison,
                             compare_policies(jobs, by_capacity[c], options));
      sweep.points.push_back({load, request.capacity_factors[c], std::move(comparison)});
    }
  }
  return sweep;
}

}  // namespace allot::cli
