// Decoders for Workloads: the `spec` of a Workload document, and the parts of
// a workload spec that Scenario arrivals and generators share with it.
//
// Contract: podSets is a non-empty list; a pod set's name defaults to "main"
// when it is alone and "podset-<i>" otherwise, and names are unique; count is
// >= 1 (default 1); minCount, when given, is within [1, count]; a pod set's
// total (resources x count) and the workload's total must stay within
// kMaxQuantity. Priority classes and flavors are not resolved here. Stateless.
#pragma once

#include <vector>

#include "api/manifest_fields.h"
#include "base/result.h"
#include "model/object_meta.h"
#include "model/workload.h"

namespace allot {

// Largest pod count of one pod set.
inline constexpr int32_t kMaxPodsPerPodSet = 100'000;

Result<std::vector<PodSet>> decode_pod_sets(const Field& field);

// Reads the fields every workload description has (kind, priorityClass,
// podSets, maxRuntimeSeconds, checkpoint, and an InferenceEndpoint's replicas
// and scaling: api/endpoint_fields.h) from `map` into `spec`.
Status read_workload_basics(MapReader& map, WorkloadSpec& spec);

// The `spec` of a Workload document; adds command, env and idleTimeoutSeconds.
Result<Workload> decode_workload(ObjectMeta meta, const Field& spec);

}  // namespace allot
