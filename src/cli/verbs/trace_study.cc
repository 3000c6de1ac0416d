#include "cli/verbs/trace_study.h"

#include <chrono>
#include <filesystem>
#include <set>
#include <utility>

#include "api/manifest_parser.h"

namespace allot::cli {
namespace {

std::string policy_name(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

Status check_flags(const TraceStudyRequest& request) {
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

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Result<PolicyComparison> run_trace_study(const TraceStudyRequest& request) {
  ALLOT_RETURN_IF_ERROR(check_flags(request));
  ALLOT_ASSIGN_OR_RETURN(const std::vector<TraceJob> jobs,
                         load_trace_file(request.trace_path, request.format, request.window));
  ALLOT_ASSIGN_OR_RETURN(const std::vector<NamedPolicy> policies,
                         load_policies(request.policy_paths));
  StudyOptions options;
  options.cycle = request.cycle;
  options.namespace_prefix = request.namespace_prefix.value_or(
      request.format == TraceFormat::kPhilly ? std::string("vc-") : std::string());
  options.trace_origin = request.trace_path;
  options.on_progress = request.on_progress;
  options.stopwatch = steady_seconds;
  options.executor = request.executor;
  return compare_policies(jobs, policies, options);
}

}  // namespace allot::cli
