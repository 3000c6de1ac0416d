// Decoder for the `spec` of a Scenario: the scheduling cycle, explicit
// arrivals, generators of repeated arrivals and node health events, all on
// virtual time (offsets from the start of the simulation).
//
// Contract: arrivals need at, name, namespace, runtime and podSets (pod sets
// as in a Workload, see workload_document.h); generators need namespace,
// count, every, runtime and podSets, start defaults to 0s and namePrefix to
// "<namespace>-<priorityClass>" (or "<namespace>" without a priority class);
// node events need at, node and healthy. Stateless.
#pragma once

#include "api/manifest_fields.h"
#include "base/result.h"
#include "model/object_meta.h"
#include "model/scenario.h"

namespace allot {

// Largest number of arrivals one generator may produce.
inline constexpr int64_t kMaxGeneratedArrivals = 10'000'000;

Result<Scenario> decode_scenario(ObjectMeta meta, const Field& spec);

}  // namespace allot
