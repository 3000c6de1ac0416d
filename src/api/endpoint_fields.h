// The fields of an InferenceEndpoint: `replicas: {min, max}`, `scaleOn`,
// `target` and `scaleDownWindowSeconds` (docs/endpoints.md).
//
// Contract: read_endpoint_fields() reads them from a workload spec's map and
// checks them against the workload's kind: for kind InferenceEndpoint,
// `replicas` is required, 0 <= min <= max, 1 <= max <= kMaxReplicas; scaleOn
// defaults to external; queueDepth and cpu need a `target` > 0, external
// takes none. Any of these fields on another kind is an error naming it.
// Call it after `kind` has been read. Stateless.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "api/manifest_fields.h"
#include "base/status.h"
#include "model/workload.h"

namespace allot {

// Most replicas one endpoint may declare.
inline constexpr int32_t kMaxReplicas = 1000;

Status read_endpoint_fields(MapReader& map, WorkloadSpec& spec);

// "external", "queueDepth", "cpu".
std::string_view scale_signal_name(ScaleSignal signal);
std::optional<ScaleSignal> parse_scale_signal(std::string_view name);

}  // namespace allot
