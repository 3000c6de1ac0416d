#include "service/simulation/endpoint_arrivals.h"

#include <algorithm>
#include <string>
#include <utility>

namespace allot {
namespace {

struct DesiredStep {
  Timestamp at;
  int32_t replicas = 0;
};

std::string event_field(size_t index, std::string_view field) {
  return "Scenario.spec.scale[" + std::to_string(index) + "]." + std::string(field);
}

bool is_endpoint(const Workload& w) {
  return w.spec.kind == WorkloadKind::kInferenceEndpoint && w.spec.endpoint.has_value();
}

// The desired count over the endpoint's life, from its scale events.
Result<std::vector<DesiredStep>> desired_steps(const Arrival& endpoint,
                                               const std::vector<ScenarioScaleEvent>& events,
                                               std::vector<bool>& used) {
  const EndpointSpec& spec = *endpoint.workload.spec.endpoint;
  const Timestamp end = endpoint.at + endpoint.runtime;
  std::vector<DesiredStep> steps = {{endpoint.at, spec.min_replicas}};
  for (size_t i = 0; i < events.size(); ++i) {
    const ScenarioScaleEvent& e = events[i];
    if (e.namespace_name != endpoint.workload.meta.namespace_name ||
        e.workload != endpoint.workload.meta.name) {
      continue;
    }
    used[i] = true;
    if (e.replicas < spec.min_replicas || e.replicas > spec.max_replicas) {
      return invalid_argument("replicas " + std::to_string(e.replicas) + " is outside [" +
                                  std::to_string(spec.min_replicas) + ", " +
                                  std::to_string(spec.max_replicas) + "]",
                              event_field(i, "replicas"));
    }
    const Timestamp at = Timestamp::epoch() + e.at;
    if (at < endpoint.at || at >= end) {
      return invalid_argument("the event lies outside the endpoint's life [" +
                                  (endpoint.at - Timestamp::epoch()).to_string() + ", " +
                                  (end - Timestamp::epoch()).to_string() + ")",
                              event_field(i, "at"));
    }
    steps.push_back({at, e.replicas});
  }
  std::stable_sort(steps.begin(), steps.end(),
                   [](const DesiredStep& a, const DesiredStep& b) { return a.at < b.at; });
  return steps;
}

Arrival replica_arrival(const Arrival& endpoint, int32_t replica, int32_t stretch, Timestamp from,
                        Timestamp to) {
  Arrival out = endpoint;
  out.workload.meta.name += "-" + std::to_string(replica);
  if (stretch > 1) out.workload.meta.name += "-" + std::to_string(stretch);
  out.at = from;
  out.runtime = to - from;
  out.replica = replica;
  out.withdraw_at = to;
  return out;
}

// One arrival per stretch of time that each replica is wanted.
void expand_one(const Arrival& endpoint, const std::vector<DesiredStep>& steps,
                std::vector<Arrival>& out) {
  const Timestamp end = endpoint.at + endpoint.runtime;
  for (int32_t replica = 0; replica < endpoint.workload.spec.endpoint->max_replicas; ++replica) {
    int32_t stretch = 0;
    // A flag and a time rather than std::optional: GCC 12 at -O2 takes the
    // optional's time for maybe uninitialised (-Werror=maybe-uninitialized).
    bool open = false;
    Timestamp since;
    for (size_t s = 0; s < steps.size(); ++s) {
      const bool wanted = steps[s].replicas > replica;
      if (wanted && !open) {
        open = true;
        since = steps[s].at;
      }
      if (!wanted && open) {
        if (steps[s].at > since)
          out.push_back(replica_arrival(endpoint, replica, ++stretch, since, steps[s].at));
        open = false;
      }
    }
    if (open && end > since)
      out.push_back(replica_arrival(endpoint, replica, ++stretch, since, end));
  }
}

}  // namespace

Result<std::vector<Arrival>> expand_endpoints(std::vector<Arrival> arrivals,
                                              const std::vector<ScenarioScaleEvent>& events) {
  std::vector<bool> used(events.size(), false);
  std::vector<Arrival> out;
  out.reserve(arrivals.size());
  for (Arrival& arrival : arrivals) {
    if (!is_endpoint(arrival.workload)) {
      out.push_back(std::move(arrival));
      continue;
    }
    if (arrival.runtime <= Duration()) {
      return invalid_argument("an endpoint needs a runtime (how long it serves)",
                              "Workload/" + arrival.workload.meta.namespace_name + "/" +
                                  arrival.workload.meta.name + ".runtime");
    }
    ALLOT_ASSIGN_OR_RETURN(const std::vector<DesiredStep> steps,
                           desired_steps(arrival, events, used));
    expand_one(arrival, steps, out);
  }
  for (size_t i = 0; i < events.size(); ++i) {
    if (!used[i]) {
      return not_found("no InferenceEndpoint '" + events[i].namespace_name + "/" +
                           events[i].workload + "' in the scenario",
                       event_field(i, "workload"));
    }
  }
  return out;
}

}  // namespace allot
