#include "api/workload_document.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "api/endpoint_fields.h"
#include "api/resource_fields.h"

namespace allot {
namespace {

constexpr EnumName<WorkloadKind> kWorkloadKindNames[] = {
    {"TrainingJob", WorkloadKind::kTrainingJob},
    {"InferenceEndpoint", WorkloadKind::kInferenceEndpoint},
    {"Space", WorkloadKind::kSpace},
    {"Job", WorkloadKind::kJob},
};

// `default_name` applies when the pod set has no name.
Result<PodSet> decode_pod_set(const Field& field, std::string default_name) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  PodSet pod_set;
  pod_set.name = std::move(default_name);
  ALLOT_RETURN_IF_ERROR(map.read_name("name", pod_set.name));
  ALLOT_RETURN_IF_ERROR(map.read_int("count", pod_set.count, 1, kMaxPodsPerPodSet));
  ALLOT_RETURN_IF_ERROR(map.read_int("minCount", pod_set.min_count, 1, kMaxPodsPerPodSet));
  ALLOT_RETURN_IF_ERROR(map.read_required("resources", pod_set.resources, decode_resources));
  ALLOT_RETURN_IF_ERROR(map.read_string("flavor", pod_set.flavor));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (pod_set.min_count > pod_set.count) {
    return map.get("minCount")
        ->error("minCount " + std::to_string(pod_set.min_count) + " exceeds count " +
                std::to_string(pod_set.count));
  }
  return pod_set;
}

// Kubernetes' rule for environment variable names (a C identifier, plus '-'
// and '.'), which a process can always receive: no '=', no NUL, not empty.
bool is_env_name(std::string_view name) {
  const auto allowed = [](char c, bool first) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-' || c == '.' ||
           (!first && c >= '0' && c <= '9');
  };
  if (name.empty() || !allowed(name.front(), true)) return false;
  return std::all_of(name.begin() + 1, name.end(), [&](char c) { return allowed(c, false); });
}

std::string env_name_error(std::string_view name) {
  return "'" + std::string(name) +
         "' is not a valid environment variable name: use letters, digits, '_', '-' and '.', "
         "not starting with a digit";
}

// The environment is checked at submit, so that a pod never fails to start on it.
Status check_env(const std::map<std::string, std::string>& env, const Field& field) {
  for (const auto& [name, value] : env) {
    if (!is_env_name(name)) return field.error(env_name_error(name));
    if (value.find('\0') != std::string::npos) {
      return field.error("the value of " + name + " contains a NUL character");
    }
  }
  return {};
}

Result<CheckpointSpec> decode_checkpoint(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  CheckpointSpec checkpoint;
  ALLOT_RETURN_IF_ERROR(map.read_required_string("env", checkpoint.env));
  if (!is_env_name(checkpoint.env)) return map.get("env")->error(env_name_error(checkpoint.env));
  ALLOT_RETURN_IF_ERROR(map.read_seconds("intervalSeconds", checkpoint.interval));
  if (checkpoint.interval && *checkpoint.interval <= Duration()) {
    return map.get("intervalSeconds")->error("must be at least 1 (seconds between checkpoints)");
  }
  ALLOT_RETURN_IF_ERROR(map.finish());
  return checkpoint;
}

}  // namespace

Result<std::vector<PodSet>> decode_pod_sets(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<Field> items, field.elements());
  if (items.empty()) return field.error("a workload needs at least one pod set");
  std::vector<PodSet> out;
  std::set<std::string> names;
  ResourceVector total;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string default_name = items.size() == 1 ? "main" : "podset-" + std::to_string(i);
    ALLOT_ASSIGN_OR_RETURN(PodSet pod_set, decode_pod_set(items[i], std::move(default_name)));
    if (!names.insert(pod_set.name).second) {
      return items[i].error("pod set name '" + pod_set.name + "' is used twice");
    }
    // Totals are checked here so that no later sum over pods can overflow.
    Result<ResourceVector> pod_set_total = checked_multiply(pod_set.resources, pod_set.count);
    if (!pod_set_total.ok()) {
      return items[i].error("resources x count is too large", ErrorCode::kOutOfRange);
    }
    Result<ResourceVector> sum = checked_add(total, *pod_set_total);
    if (!sum.ok()) {
      return field.error("the workload's total resources are too large", ErrorCode::kOutOfRange);
    }
    total = *sum;
    out.push_back(std::move(pod_set));
  }
  return out;
}

Status read_workload_basics(MapReader& map, WorkloadSpec& spec) {
  ALLOT_RETURN_IF_ERROR(map.read_enum("kind", spec.kind, kWorkloadKindNames));
  ALLOT_RETURN_IF_ERROR(map.read_string("priorityClass", spec.priority_class));
  ALLOT_RETURN_IF_ERROR(map.read_required("podSets", spec.pod_sets, decode_pod_sets));
  ALLOT_RETURN_IF_ERROR(map.read_seconds("maxRuntimeSeconds", spec.max_runtime));
  ALLOT_RETURN_IF_ERROR(map.read("checkpoint", spec.checkpoint, decode_checkpoint));
  return read_endpoint_fields(map, spec);
}

Result<Workload> decode_workload(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Workload workload;
  workload.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(read_workload_basics(map, workload.spec));
  ALLOT_RETURN_IF_ERROR(map.read_string_list("command", workload.spec.command));
  ALLOT_RETURN_IF_ERROR(map.read_string_map("env", workload.spec.env));
  if (std::optional<Field> env = map.get("env")) {
    ALLOT_RETURN_IF_ERROR(check_env(workload.spec.env, *env));
  }
  ALLOT_RETURN_IF_ERROR(map.read_seconds("idleTimeoutSeconds", workload.spec.idle_timeout));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return workload;
}

}  // namespace allot
