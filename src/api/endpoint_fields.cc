#include "api/endpoint_fields.h"

#include <string>

namespace allot {
namespace {

constexpr EnumName<ScaleSignal> kScaleSignalNames[] = {
    {"external", ScaleSignal::kExternal},
    {"queueDepth", ScaleSignal::kQueueDepth},
    {"cpu", ScaleSignal::kCpu},
};

constexpr std::string_view kEndpointKeys[] = {"replicas", "scaleOn", "target",
                                              "scaleDownWindowSeconds"};

Result<EndpointSpec> decode_replicas(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  EndpointSpec out;
  ALLOT_ASSIGN_OR_RETURN(const Field min, map.require("min"));
  ALLOT_ASSIGN_OR_RETURN(const Field max, map.require("max"));
  ALLOT_ASSIGN_OR_RETURN(const int64_t min_value, min.as_int(0, kMaxReplicas));
  ALLOT_ASSIGN_OR_RETURN(const int64_t max_value, max.as_int(1, kMaxReplicas));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (min_value > max_value) {
    return min.error("min " + std::to_string(min_value) + " exceeds max " +
                     std::to_string(max_value));
  }
  out.min_replicas = static_cast<int32_t>(min_value);
  out.max_replicas = static_cast<int32_t>(max_value);
  return out;
}

Status check_target(MapReader& map, const EndpointSpec& endpoint, bool has_target) {
  const bool needs_target = endpoint.scale_on != ScaleSignal::kExternal;
  if (needs_target && !has_target) {
    ALLOT_RETURN_IF_ERROR(map.require("target").status());
  }
  if (!needs_target && has_target) {
    return map.get("target")->error("scaleOn: external takes no target (the caller sets replicas)");
  }
  if (needs_target && !(endpoint.target > 0)) {
    return map.get("target")->error("target must be greater than 0");
  }
  return {};
}

}  // namespace

std::string_view scale_signal_name(ScaleSignal signal) {
  for (const auto& entry : kScaleSignalNames) {
    if (entry.value == signal) return entry.name;
  }
  return "external";
}

std::optional<ScaleSignal> parse_scale_signal(std::string_view name) {
  for (const auto& entry : kScaleSignalNames) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

Status read_endpoint_fields(MapReader& map, WorkloadSpec& spec) {
  if (spec.kind != WorkloadKind::kInferenceEndpoint) {
    for (std::string_view key : kEndpointKeys) {
      if (std::optional<Field> field = map.get(key)) {
        return field->error("only a workload of kind InferenceEndpoint has " + std::string(key));
      }
    }
    return {};
  }
  EndpointSpec endpoint;
  ALLOT_RETURN_IF_ERROR(map.read_required("replicas", endpoint, decode_replicas));
  ALLOT_RETURN_IF_ERROR(map.read_enum("scaleOn", endpoint.scale_on, kScaleSignalNames));
  const bool has_target = map.get("target").has_value();
  ALLOT_RETURN_IF_ERROR(map.read_number("target", endpoint.target, 0));
  ALLOT_RETURN_IF_ERROR(check_target(map, endpoint, has_target));
  ALLOT_RETURN_IF_ERROR(map.read_seconds("scaleDownWindowSeconds", endpoint.scale_down_window));
  spec.endpoint = endpoint;
  return {};
}

}  // namespace allot
