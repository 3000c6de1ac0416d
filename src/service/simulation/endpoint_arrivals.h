// Endpoint arrivals: an InferenceEndpoint in a simulation becomes the arrivals
// of its replicas (docs/endpoints.md).
//
// Contract: an endpoint arriving at `at` with `runtime` serves during
// [at, at + runtime); its desired replica count starts at replicas.min and
// follows the Scenario's `scale` events for it. Replica i is wanted while the
// desired count exceeds i; each stretch of time it is wanted becomes one
// arrival named "<name>-<i>" (a later stretch: "<name>-<i>-<k>", k = 2, 3, ...)
// with Arrival::replica = i, runtime = the stretch's length and withdraw_at =
// its end: at that time the simulator stops the replica (or takes it out of
// its queue) for good. Other arrivals pass unchanged. Errors name the field:
// a scale event for no endpoint of the scenario, replicas outside [min, max],
// an event outside the endpoint's life, an endpoint without a runtime.
// Pure function.
#pragma once

#include <vector>

#include "base/result.h"
#include "model/scenario.h"
#include "service/simulation/arrival_stream.h"

namespace allot {

Result<std::vector<Arrival>> expand_endpoints(std::vector<Arrival> arrivals,
                                              const std::vector<ScenarioScaleEvent>& events);

}  // namespace allot
