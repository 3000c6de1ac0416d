#include "api/workload_json.h"

#include <exception>
#include <string>
#include <utility>

#include "api/rfc3339.h"
#include "base/quantity.h"

namespace allot {
namespace {

using nlohmann::json;

constexpr const char* kKindNames[] = {"TrainingJob", "InferenceEndpoint", "Space", "Job"};

json resources_to_json(const ResourceVector& resources) {
  json out = json::object();
  for (Resource r : kAllResources) {
    if (resources[r] != 0) out[std::string(resource_name(r))] = format_quantity(r, resources[r]);
  }
  return out;
}

json seconds_json(Duration d) {
  if (d.ms() % 1000 == 0) return d.ms() / 1000;
  return d.secs();
}

json optional_time(const std::optional<Timestamp>& at) {
  return at ? json(format_rfc3339(*at)) : json(nullptr);
}

json pod_sets_to_json(const std::vector<PodSet>& pod_sets) {
  json out = json::array();
  for (const PodSet& pod_set : pod_sets) {
    json item = {{"name", pod_set.name},
                 {"count", pod_set.count},
                 {"resources", resources_to_json(pod_set.resources)}};
    if (pod_set.min_count > 0) item["minCount"] = pod_set.min_count;
    if (!pod_set.flavor.empty()) item["flavor"] = pod_set.flavor;
    out.push_back(std::move(item));
  }
  return out;
}

// Decoding: every accessor checks the type and names the field. A reader
// knows its parent and key (or index) and spells its path only for an error:
// startup decodes every stored workload, and most reads succeed.
class Reader {
 public:
  Reader(const json& value, std::string root) : value_(value), root_(std::move(root)) {}

  [[nodiscard]] Status error(const std::string& what) const {
    return invalid_argument("stored workload is malformed: " + what, path());
  }
  // The member `key`, or null when it is absent or null.
  [[nodiscard]] const json* find(const char* key) const {
    if (!value_.is_object()) return nullptr;
    const auto it = value_.find(key);
    return it == value_.end() || it->is_null() ? nullptr : &*it;
  }
  [[nodiscard]] bool has(const char* key) const { return find(key) != nullptr; }
  [[nodiscard]] Result<Reader> at(const char* key) const {
    const json* child = find(key);
    if (child == nullptr) return Reader(value_, this, key).error("missing");
    return Reader(*child, this, key);
  }
  // Element `index` of an array (REQUIRES: raw() is an array of more elements).
  [[nodiscard]] Reader element(size_t index) const { return Reader(value_[index], this, index); }
  [[nodiscard]] const json& raw() const { return value_; }
  [[nodiscard]] std::string path() const {
    if (parent_ == nullptr) return root_;
    if (key_ != nullptr) return parent_->path() + "." + key_;
    return parent_->path() + "[" + std::to_string(index_) + "]";
  }

  template <typename T>
  Result<T> get(const char* key) const {
    ALLOT_ASSIGN_OR_RETURN(const Reader field, at(key));
    try {
      return field.raw().get<T>();
    } catch (const std::exception&) {
      return field.error("wrong type");
    }
  }
  template <typename T>
  Status get_to(const char* key, T& out) const {
    const json* child = find(key);
    if (child == nullptr) return {};
    try {
      out = child->get<T>();
      return {};
    } catch (const std::exception&) {
      return Reader(*child, this, key).error("wrong type");
    }
  }

 private:
  // A child: used only while its parent lives (decoding is nested).
  Reader(const json& value, const Reader* parent, const char* key)
      : value_(value), parent_(parent), key_(key) {}
  Reader(const json& value, const Reader* parent, size_t index)
      : value_(value), parent_(parent), index_(index) {}

  const json& value_;
  const Reader* parent_ = nullptr;
  const char* key_ = nullptr;
  size_t index_ = 0;
  std::string root_;
};

Result<ResourceVector> decode_resources(const Reader& reader) {
  ResourceVector resources;
  if (!reader.raw().is_object()) return reader.error("expected an object");
  for (const auto& [key, value] : reader.raw().items()) {
    ALLOT_ASSIGN_OR_RETURN(const Resource resource, parse_resource_name(key));
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    ALLOT_ASSIGN_OR_RETURN(const int64_t amount, parse_quantity(resource, text));
    resources[resource] = amount;
  }
  return resources;
}

Result<Timestamp> decode_time(const Reader& reader, const char* key) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, reader.get<std::string>(key));
  return parse_rfc3339(text);
}

Status decode_optional_time(const Reader& reader, const char* key, std::optional<Timestamp>& out) {
  if (!reader.has(key)) return {};
  ALLOT_ASSIGN_OR_RETURN(out, decode_time(reader, key));
  return {};
}

Result<Duration> decode_seconds(const Reader& reader, const char* key) {
  ALLOT_ASSIGN_OR_RETURN(const double seconds, reader.get<double>(key));
  return Duration::millis(static_cast<int64_t>(seconds * 1000.0 + 0.5));
}

Result<std::vector<PodSet>> decode_pod_sets(const Reader& spec) {
  ALLOT_ASSIGN_OR_RETURN(const Reader list, spec.at("podSets"));
  if (!list.raw().is_array()) return list.error("expected an array");
  std::vector<PodSet> pod_sets;
  pod_sets.reserve(list.raw().size());
  for (size_t i = 0; i < list.raw().size(); ++i) {
    const Reader item = list.element(i);
    PodSet pod_set;
    ALLOT_RETURN_IF_ERROR(item.get_to("name", pod_set.name));
    ALLOT_RETURN_IF_ERROR(item.get_to("count", pod_set.count));
    ALLOT_RETURN_IF_ERROR(item.get_to("minCount", pod_set.min_count));
    ALLOT_RETURN_IF_ERROR(item.get_to("flavor", pod_set.flavor));
    if (item.has("resources")) {
      ALLOT_ASSIGN_OR_RETURN(const Reader resources, item.at("resources"));
      ALLOT_ASSIGN_OR_RETURN(pod_set.resources, decode_resources(resources));
    }
    pod_sets.push_back(std::move(pod_set));
  }
  return pod_sets;
}

Result<WorkloadKind> decode_kind(const Reader& spec) {
  std::string kind = "Job";
  ALLOT_RETURN_IF_ERROR(spec.get_to("kind", kind));
  for (size_t i = 0; i < std::size(kKindNames); ++i) {
    if (kind == kKindNames[i]) return static_cast<WorkloadKind>(i);
  }
  return spec.error("unknown workload kind '" + kind + "'");
}

Result<WorkloadSpec> decode_spec(const Reader& spec) {
  WorkloadSpec out;
  ALLOT_ASSIGN_OR_RETURN(out.kind, decode_kind(spec));
  ALLOT_RETURN_IF_ERROR(spec.get_to("priorityClass", out.priority_class));
  ALLOT_ASSIGN_OR_RETURN(out.pod_sets, decode_pod_sets(spec));
  ALLOT_RETURN_IF_ERROR(spec.get_to("command", out.command));
  ALLOT_RETURN_IF_ERROR(spec.get_to("env", out.env));
  if (spec.has("maxRuntimeSeconds")) {
    ALLOT_ASSIGN_OR_RETURN(out.max_runtime, decode_seconds(spec, "maxRuntimeSeconds"));
  }
  if (spec.has("idleTimeoutSeconds")) {
    ALLOT_ASSIGN_OR_RETURN(out.idle_timeout, decode_seconds(spec, "idleTimeoutSeconds"));
  }
  if (spec.has("checkpoint")) {
    ALLOT_ASSIGN_OR_RETURN(const Reader checkpoint, spec.at("checkpoint"));
    ALLOT_ASSIGN_OR_RETURN(const std::string env, checkpoint.get<std::string>("env"));
    out.checkpoint = CheckpointSpec{env};
  }
  if (spec.has("sleep")) {
    ALLOT_ASSIGN_OR_RETURN(const std::string text, spec.get<std::string>("sleep"));
    ALLOT_ASSIGN_OR_RETURN(out.sleep, parse_duration(text));
  }
  return out;
}

Result<std::vector<PodSetStatus>> decode_pod_set_status(const Reader& status) {
  std::vector<PodSetStatus> out;
  if (!status.has("podSets")) return out;
  ALLOT_ASSIGN_OR_RETURN(const Reader list, status.at("podSets"));
  if (!list.raw().is_array()) return list.error("expected an array");
  for (size_t i = 0; i < list.raw().size(); ++i) {
    const Reader item = list.element(i);
    PodSetStatus pod_set;
    ALLOT_RETURN_IF_ERROR(item.get_to("name", pod_set.name));
    ALLOT_ASSIGN_OR_RETURN(const Reader pods, item.at("pods"));
    if (!pods.raw().is_array()) return pods.error("expected an array");
    for (size_t p = 0; p < pods.raw().size(); ++p) {
      const Reader pod = pods.element(p);
      PodAssignment assignment;
      ALLOT_ASSIGN_OR_RETURN(assignment.node, pod.get<std::string>("node"));
      ALLOT_RETURN_IF_ERROR(pod.get_to("gpus", assignment.gpus));
      pod_set.pods.push_back(std::move(assignment));
    }
    out.push_back(std::move(pod_set));
  }
  return out;
}

Result<WorkloadStatus> decode_status(const Reader& status) {
  WorkloadStatus out;
  ALLOT_ASSIGN_OR_RETURN(const std::string phase, status.get<std::string>("phase"));
  const std::optional<WorkloadPhase> parsed = parse_workload_phase(phase);
  if (!parsed) return status.error("unknown phase '" + phase + "'");
  out.phase = *parsed;
  ALLOT_RETURN_IF_ERROR(status.get_to("team", out.team));
  ALLOT_ASSIGN_OR_RETURN(out.created_at, decode_time(status, "createdAt"));
  ALLOT_ASSIGN_OR_RETURN(out.queued_at, decode_time(status, "queuedAt"));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "firstAdmittedAt", out.first_admitted_at));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "admittedAt", out.admitted_at));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "startedAt", out.started_at));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "finishedAt", out.finished_at));
  ALLOT_RETURN_IF_ERROR(status.get_to("flavor", out.flavor));
  ALLOT_ASSIGN_OR_RETURN(out.pod_sets, decode_pod_set_status(status));
  ALLOT_RETURN_IF_ERROR(status.get_to("restarts", out.restarts));
  ALLOT_RETURN_IF_ERROR(status.get_to("stopping", out.stopping));
  ALLOT_RETURN_IF_ERROR(status.get_to("preemptedBy", out.preempted_by));
  if (status.has("exitCode")) {
    ALLOT_ASSIGN_OR_RETURN(out.exit_code, status.get<int32_t>("exitCode"));
  }
  ALLOT_RETURN_IF_ERROR(status.get_to("reason", out.reason));
  ALLOT_RETURN_IF_ERROR(status.get_to("message", out.message));
  return out;
}

}  // namespace

json workload_spec_to_json(const WorkloadSpec& spec) {
  json out = {{"kind", kKindNames[static_cast<size_t>(spec.kind)]},
              {"podSets", pod_sets_to_json(spec.pod_sets)}};
  if (!spec.priority_class.empty()) out["priorityClass"] = spec.priority_class;
  if (!spec.command.empty()) out["command"] = spec.command;
  if (!spec.env.empty()) out["env"] = spec.env;
  if (spec.max_runtime) out["maxRuntimeSeconds"] = seconds_json(*spec.max_runtime);
  if (spec.idle_timeout) out["idleTimeoutSeconds"] = seconds_json(*spec.idle_timeout);
  if (spec.checkpoint) out["checkpoint"] = {{"env", spec.checkpoint->env}};
  if (spec.sleep) out["sleep"] = spec.sleep->to_string();
  return out;
}

json workload_status_to_json(const WorkloadStatus& status) {
  json pod_sets = json::array();
  for (const PodSetStatus& pod_set : status.pod_sets) {
    json pods = json::array();
    for (const PodAssignment& pod : pod_set.pods) {
      pods.push_back({{"node", pod.node}, {"gpus", pod.gpus}});
    }
    pod_sets.push_back({{"name", pod_set.name}, {"pods", std::move(pods)}});
  }
  return {{"phase", workload_phase_name(status.phase)},
          {"team", status.team},
          {"createdAt", format_rfc3339(status.created_at)},
          {"queuedAt", format_rfc3339(status.queued_at)},
          {"firstAdmittedAt", optional_time(status.first_admitted_at)},
          {"admittedAt", optional_time(status.admitted_at)},
          {"startedAt", optional_time(status.started_at)},
          {"finishedAt", optional_time(status.finished_at)},
          {"flavor", status.flavor},
          {"podSets", std::move(pod_sets)},
          {"restarts", status.restarts},
          {"stopping", status.stopping},
          {"preemptedBy", status.preempted_by},
          {"exitCode", status.exit_code ? json(*status.exit_code) : json(nullptr)},
          {"reason", status.reason},
          {"message", status.message}};
}

json workload_to_json(const WorkloadDocument& document) {
  const Workload& workload = document.workload;
  json metadata = {{"name", workload.meta.name},
                   {"namespace", workload.meta.namespace_name},
                   {"uid", document.uid}};
  if (!workload.meta.labels.empty()) metadata["labels"] = workload.meta.labels;
  return {{"apiVersion", "allot/v1"},
          {"kind", "Workload"},
          {"metadata", std::move(metadata)},
          {"spec", workload_spec_to_json(workload.spec)},
          {"status", workload_status_to_json(document.status)}};
}

Result<WorkloadDocument> workload_from_json(const json& value) {
  const Reader root(value, "workload");
  if (!value.is_object()) return root.error("expected an object");
  WorkloadDocument out;
  ALLOT_ASSIGN_OR_RETURN(const Reader metadata, root.at("metadata"));
  ALLOT_ASSIGN_OR_RETURN(out.uid, metadata.get<uint64_t>("uid"));
  ALLOT_ASSIGN_OR_RETURN(out.workload.meta.name, metadata.get<std::string>("name"));
  ALLOT_ASSIGN_OR_RETURN(out.workload.meta.namespace_name, metadata.get<std::string>("namespace"));
  ALLOT_RETURN_IF_ERROR(metadata.get_to("labels", out.workload.meta.labels));
  ALLOT_ASSIGN_OR_RETURN(const Reader spec, root.at("spec"));
  ALLOT_ASSIGN_OR_RETURN(out.workload.spec, decode_spec(spec));
  ALLOT_ASSIGN_OR_RETURN(const Reader status, root.at("status"));
  ALLOT_ASSIGN_OR_RETURN(out.status, decode_status(status));
  return out;
}

}  // namespace allot
