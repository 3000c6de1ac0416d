#include "api/workload_json.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/endpoint_fields.h"
#include "api/json_writer.h"
#include "api/rfc3339.h"
#include "base/quantity.h"

namespace allot {
namespace {

using nlohmann::json;

constexpr const char* kWorkloadJsonKindNames[] = {"TrainingJob", "InferenceEndpoint", "Space",
                                                  "Job"};

// Encoding: keys in sorted order, so that the text is the canonical form
// nlohmann::json::dump() gives for the same values.

void write_resources(JsonWriter& out, const ResourceVector& resources) {
  std::array<Resource, kResourceCount> order = kAllResources;
  std::sort(order.begin(), order.end(),
            [](Resource a, Resource b) { return resource_name(a) < resource_name(b); });
  out.begin_object();
  for (Resource r : order) {
    if (resources[r] != 0) out.key(resource_name(r)).value(format_quantity(r, resources[r]));
  }
  out.end_object();
}

void write_seconds(JsonWriter& out, Duration d) {
  if (d.ms() % 1000 == 0) {
    out.value(d.ms() / 1000);
  } else {
    out.value(d.secs());
  }
}

void write_time(JsonWriter& out, const std::optional<Timestamp>& at) {
  if (at) {
    out.value(format_rfc3339(*at));
  } else {
    out.null();
  }
}

void write_strings(JsonWriter& out, const std::vector<std::string>& strings) {
  out.begin_array();
  for (const std::string& text : strings) out.value(text);
  out.end_array();
}

void write_string_map(JsonWriter& out, const std::map<std::string, std::string>& map) {
  out.begin_object();
  for (const auto& [key, text] : map) out.key(key).value(text);
  out.end_object();
}

void write_pod_sets(JsonWriter& out, const std::vector<PodSet>& pod_sets) {
  out.begin_array();
  for (const PodSet& pod_set : pod_sets) {
    out.begin_object().key("count").value(pod_set.count);
    if (!pod_set.flavor.empty()) out.key("flavor").value(pod_set.flavor);
    if (pod_set.min_count > 0) out.key("minCount").value(pod_set.min_count);
    out.key("name").value(pod_set.name).key("resources");
    write_resources(out, pod_set.resources);
    out.end_object();
  }
  out.end_array();
}

// Inside the spec object: its keys follow priorityClass in sorted order.
void write_endpoint(JsonWriter& out, const EndpointSpec& endpoint) {
  out.key("replicas").begin_object().key("max").value(endpoint.max_replicas);
  out.key("min").value(endpoint.min_replicas).end_object();
  write_seconds(out.key("scaleDownWindowSeconds"), endpoint.scale_down_window);
  out.key("scaleOn").value(scale_signal_name(endpoint.scale_on));
  if (endpoint.scale_on != ScaleSignal::kExternal) out.key("target").value(endpoint.target);
}

void write_spec(JsonWriter& out, const WorkloadSpec& spec) {
  out.begin_object();
  if (spec.checkpoint) {
    out.key("checkpoint").begin_object().key("env").value(spec.checkpoint->env);
    if (spec.checkpoint->interval) {
      write_seconds(out.key("intervalSeconds"), *spec.checkpoint->interval);
    }
    out.end_object();
  }
  if (!spec.command.empty()) write_strings(out.key("command"), spec.command);
  if (!spec.env.empty()) write_string_map(out.key("env"), spec.env);
  if (spec.idle_timeout) write_seconds(out.key("idleTimeoutSeconds"), *spec.idle_timeout);
  out.key("kind").value(kWorkloadJsonKindNames[static_cast<size_t>(spec.kind)]);
  if (spec.max_runtime) write_seconds(out.key("maxRuntimeSeconds"), *spec.max_runtime);
  write_pod_sets(out.key("podSets"), spec.pod_sets);
  if (!spec.priority_class.empty()) out.key("priorityClass").value(spec.priority_class);
  if (spec.endpoint) write_endpoint(out, *spec.endpoint);
  out.end_object();
}

void write_pod_set_status(JsonWriter& out, const std::vector<PodSetStatus>& pod_sets) {
  out.begin_array();
  for (const PodSetStatus& pod_set : pod_sets) {
    out.begin_object().key("name").value(pod_set.name).key("pods").begin_array();
    for (const PodAssignment& pod : pod_set.pods) {
      out.begin_object().key("gpus").begin_array();
      for (int32_t gpu : pod.gpus) out.value(gpu);
      out.end_array().key("node").value(pod.node).end_object();
    }
    out.end_array().end_object();
  }
  out.end_array();
}

void write_backend_job(JsonWriter& out, const BackendJob& job) {
  out.begin_object().key("jobId").value(job.job_id).key("kind").value(job.kind);
  out.key("nodes").value(job.nodes);
  if (!job.placed_nodes.empty()) out.key("placedNodes").value(job.placed_nodes);
  out.key("reason").value(job.reason);
  out.key("state").value(job.state).end_object();
}

void write_status(JsonWriter& out, const WorkloadStatus& status) {
  out.begin_object();
  write_time(out.key("admittedAt"), status.admitted_at);
  if (status.backend) write_backend_job(out.key("backend"), *status.backend);
  out.key("createdAt").value(format_rfc3339(status.created_at));
  if (status.deleting) out.key("deleting").value(true);
  if (status.exit_code) {
    out.key("exitCode").value(*status.exit_code);
  } else {
    out.key("exitCode").null();
  }
  write_time(out.key("finishedAt"), status.finished_at);
  write_time(out.key("firstAdmittedAt"), status.first_admitted_at);
  out.key("flavor").value(status.flavor);
  if (status.last_checkpoint_at) write_time(out.key("lastCheckpointAt"), status.last_checkpoint_at);
  out.key("message").value(status.message);
  out.key("phase").value(workload_phase_name(status.phase));
  write_pod_set_status(out.key("podSets"), status.pod_sets);
  out.key("preemptedBy").value(status.preempted_by);
  out.key("queuedAt").value(format_rfc3339(status.queued_at));
  out.key("reason").value(status.reason);
  if (status.replicas) {
    out.key("replicas").begin_object().key("admitted").value(status.replicas->admitted);
    out.key("desired").value(status.replicas->desired);
    out.key("ready").value(status.replicas->ready).end_object();
  }
  out.key("restarts").value(status.restarts);
  write_time(out.key("startedAt"), status.started_at);
  if (status.stopping_for != StopCause::kNone) {
    out.key("stopReason").value(stop_cause_name(status.stopping_for));
  }
  out.key("stopping").value(status.stopping_for != StopCause::kNone);
  out.key("submittedBy").value(status.submitted_by);
  out.key("team").value(status.team);
  out.end_object();
}

// nlohmann's get<T>() casts a float to an integer type, which is undefined
// beyond the type's range, and cuts a wider integer down: an integer is read
// only from a JSON integer within T's range (for a list, each element).
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

template <typename T>
bool fits(const json& value) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (value.is_number_unsigned()) return std::in_range<T>(value.get<uint64_t>());
    return value.is_number_integer() && std::in_range<T>(value.get<int64_t>());
  } else if constexpr (IsVector<T>::value) {
    return !value.is_array() || std::all_of(value.begin(), value.end(), [](const json& item) {
      return fits<typename T::value_type>(item);
    });
  } else {
    return true;  // nlohmann checks the type of strings, booleans, maps and floats
  }
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
    // Through the object's map: GCC 12 at -O2 sees a null dereference in
    // json's own iterator (-Wnull-dereference, a false positive).
    const json::object_t& object = value_.get_ref<const json::object_t&>();
    const auto it = object.find(key);
    return it == object.end() || it->second.is_null() ? nullptr : &it->second;
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
    if (!fits<T>(field.raw())) return field.error("wrong type");
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
    if (!fits<T>(*child)) return Reader(*child, this, key).error("wrong type");
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
  ALLOT_ASSIGN_OR_RETURN(const Reader field, reader.at(key));
  ALLOT_ASSIGN_OR_RETURN(const double seconds, reader.get<double>(key));
  // Within a Duration, so that the cast is defined (NaN fails both tests).
  const int64_t longest_whole_seconds = Duration::max().ms() / 1000;
  if (!(seconds >= 0 && seconds <= static_cast<double>(longest_whole_seconds)))
    return field.error("out of range");
  return Duration::millis(std::llround(seconds * 1000.0));
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
  for (size_t i = 0; i < std::size(kWorkloadJsonKindNames); ++i) {
    if (kind == kWorkloadJsonKindNames[i]) return static_cast<WorkloadKind>(i);
  }
  return spec.error("unknown workload kind '" + kind + "'");
}

Result<EndpointSpec> decode_endpoint(const Reader& spec) {
  EndpointSpec out;
  ALLOT_ASSIGN_OR_RETURN(const Reader replicas, spec.at("replicas"));
  ALLOT_ASSIGN_OR_RETURN(out.min_replicas, replicas.get<int32_t>("min"));
  ALLOT_ASSIGN_OR_RETURN(out.max_replicas, replicas.get<int32_t>("max"));
  if (spec.has("scaleDownWindowSeconds")) {
    ALLOT_ASSIGN_OR_RETURN(out.scale_down_window, decode_seconds(spec, "scaleDownWindowSeconds"));
  }
  std::string signal = "external";
  ALLOT_RETURN_IF_ERROR(spec.get_to("scaleOn", signal));
  const std::optional<ScaleSignal> parsed = parse_scale_signal(signal);
  if (!parsed) return spec.error("unknown scaleOn '" + signal + "'");
  out.scale_on = *parsed;
  ALLOT_RETURN_IF_ERROR(spec.get_to("target", out.target));
  return out;
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
    out.checkpoint = CheckpointSpec{env, std::nullopt};
    if (checkpoint.has("intervalSeconds")) {
      ALLOT_ASSIGN_OR_RETURN(out.checkpoint->interval,
                             decode_seconds(checkpoint, "intervalSeconds"));
    }
  }
  if (spec.has("replicas")) {
    ALLOT_ASSIGN_OR_RETURN(out.endpoint, decode_endpoint(spec));
  }
  return out;
}

// `stopping` with its `stopReason`, and `deleting`. A document stored before
// stop reasons were kept says only `stopping`: its stop requeued the work.
Status decode_stop(const Reader& status, WorkloadStatus& out) {
  bool stopping = false;
  ALLOT_RETURN_IF_ERROR(status.get_to("stopping", stopping));
  out.stopping_for = StopCause::kNone;
  if (status.has("stopReason")) {
    ALLOT_ASSIGN_OR_RETURN(const std::string reason, status.get<std::string>("stopReason"));
    const std::optional<StopCause> cause = parse_stop_cause(reason);
    if (!cause || (*cause == StopCause::kNone) == stopping) {
      return status.error("unknown stopReason '" + reason + "'");
    }
    out.stopping_for = *cause;
  } else if (stopping) {
    out.stopping_for = StopCause::kEvict;
  }
  if (status.has("deleting")) {
    ALLOT_ASSIGN_OR_RETURN(out.deleting, status.get<bool>("deleting"));
  }
  return {};
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

Result<std::optional<BackendJob>> decode_backend_job(const Reader& status) {
  if (!status.has("backend")) return std::optional<BackendJob>();
  ALLOT_ASSIGN_OR_RETURN(const Reader backend, status.at("backend"));
  BackendJob job;
  ALLOT_ASSIGN_OR_RETURN(job.kind, backend.get<std::string>("kind"));
  ALLOT_ASSIGN_OR_RETURN(job.job_id, backend.get<std::string>("jobId"));
  ALLOT_RETURN_IF_ERROR(backend.get_to("state", job.state));
  ALLOT_RETURN_IF_ERROR(backend.get_to("reason", job.reason));
  ALLOT_RETURN_IF_ERROR(backend.get_to("nodes", job.nodes));
  ALLOT_RETURN_IF_ERROR(backend.get_to("placedNodes", job.placed_nodes));
  return std::optional<BackendJob>(std::move(job));
}

Result<WorkloadStatus> decode_status(const Reader& status) {
  WorkloadStatus out;
  ALLOT_ASSIGN_OR_RETURN(const std::string phase, status.get<std::string>("phase"));
  const std::optional<WorkloadPhase> parsed = parse_workload_phase(phase);
  if (!parsed) return status.error("unknown phase '" + phase + "'");
  out.phase = *parsed;
  ALLOT_RETURN_IF_ERROR(status.get_to("team", out.team));
  ALLOT_RETURN_IF_ERROR(status.get_to("submittedBy", out.submitted_by));  // absent before issue 11
  ALLOT_ASSIGN_OR_RETURN(out.created_at, decode_time(status, "createdAt"));
  ALLOT_ASSIGN_OR_RETURN(out.queued_at, decode_time(status, "queuedAt"));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "firstAdmittedAt", out.first_admitted_at));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "admittedAt", out.admitted_at));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "startedAt", out.started_at));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "finishedAt", out.finished_at));
  ALLOT_RETURN_IF_ERROR(decode_optional_time(status, "lastCheckpointAt", out.last_checkpoint_at));
  ALLOT_RETURN_IF_ERROR(status.get_to("flavor", out.flavor));
  ALLOT_ASSIGN_OR_RETURN(out.pod_sets, decode_pod_set_status(status));
  ALLOT_ASSIGN_OR_RETURN(out.backend, decode_backend_job(status));
  ALLOT_RETURN_IF_ERROR(status.get_to("restarts", out.restarts));
  ALLOT_RETURN_IF_ERROR(decode_stop(status, out));
  ALLOT_RETURN_IF_ERROR(status.get_to("preemptedBy", out.preempted_by));
  if (status.has("exitCode")) {
    ALLOT_ASSIGN_OR_RETURN(out.exit_code, status.get<int32_t>("exitCode"));
  }
  ALLOT_RETURN_IF_ERROR(status.get_to("reason", out.reason));
  ALLOT_RETURN_IF_ERROR(status.get_to("message", out.message));
  if (status.has("replicas")) {
    ALLOT_ASSIGN_OR_RETURN(const Reader replicas, status.at("replicas"));
    ReplicaCounts counts;
    ALLOT_RETURN_IF_ERROR(replicas.get_to("desired", counts.desired));
    ALLOT_RETURN_IF_ERROR(replicas.get_to("admitted", counts.admitted));
    ALLOT_RETURN_IF_ERROR(replicas.get_to("ready", counts.ready));
    out.replicas = counts;
  }
  return out;
}

}  // namespace

std::string encode_workload(const WorkloadDocument& document) {
  const Workload& workload = document.workload;
  JsonWriter out;
  out.begin_object().key("apiVersion").value("allot/v1").key("kind").value("Workload");
  out.key("metadata").begin_object();
  if (!workload.meta.labels.empty()) write_string_map(out.key("labels"), workload.meta.labels);
  out.key("name").value(workload.meta.name);
  out.key("namespace").value(workload.meta.namespace_name);
  out.key("uid").value(document.uid.value()).end_object();
  write_spec(out.key("spec"), workload.spec);
  write_status(out.key("status"), document.status);
  out.end_object();
  return out.take();
}

json workload_to_json(const WorkloadDocument& document) {
  return json::parse(encode_workload(document));
}

json workload_spec_to_json(const WorkloadSpec& spec) {
  JsonWriter out;
  write_spec(out, spec);
  return json::parse(out.take());
}

Result<WorkloadDocument> workload_from_json(const json& value) {
  const Reader root(value, "workload");
  if (!value.is_object()) return root.error("expected an object");
  WorkloadDocument out;
  ALLOT_ASSIGN_OR_RETURN(const Reader metadata, root.at("metadata"));
  ALLOT_ASSIGN_OR_RETURN(const uint64_t uid, metadata.get<uint64_t>("uid"));
  out.uid = WorkloadId(uid);
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
