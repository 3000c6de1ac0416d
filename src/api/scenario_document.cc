#include "api/scenario_document.h"

#include <utility>
#include <vector>

#include "api/endpoint_fields.h"
#include "api/workload_document.h"

namespace allot {
namespace {

Result<ScenarioArrival> decode_arrival(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ScenarioArrival arrival;
  ALLOT_RETURN_IF_ERROR(map.read_required_duration("at", arrival.at));
  ALLOT_RETURN_IF_ERROR(map.read_required_name("name", arrival.workload.meta.name));
  ALLOT_RETURN_IF_ERROR(map.read_required_name("namespace", arrival.workload.meta.namespace_name));
  ALLOT_RETURN_IF_ERROR(map.read_required_duration("runtime", arrival.runtime));
  ALLOT_RETURN_IF_ERROR(read_workload_basics(map, arrival.workload.spec));
  ALLOT_RETURN_IF_ERROR(map.read_seconds("idleTimeoutSeconds", arrival.workload.spec.idle_timeout));
  const auto duration = [](const Field& f) { return f.as_duration(Duration()); };
  ALLOT_RETURN_IF_ERROR(map.read("idleAfter", arrival.idle_after, duration));
  ALLOT_RETURN_IF_ERROR(map.read("resumeAfter", arrival.resume_after, duration));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if ((arrival.idle_after || arrival.resume_after) &&
      arrival.workload.spec.kind != WorkloadKind::kSpace) {
    return field.error("idleAfter and resumeAfter describe a Space: the arrival needs kind: Space");
  }
  return arrival;
}

Result<ScenarioGenerator> decode_generator(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ScenarioGenerator generator;
  ALLOT_RETURN_IF_ERROR(map.read_name("namePrefix", generator.name_prefix));
  ALLOT_RETURN_IF_ERROR(map.read_required_name("namespace", generator.namespace_name));
  ALLOT_RETURN_IF_ERROR(
      map.read_required("count", generator.count, int_decoder<int64_t>(0, kMaxGeneratedArrivals)));
  ALLOT_RETURN_IF_ERROR(map.read_required_duration("every", generator.every));
  ALLOT_RETURN_IF_ERROR(map.read_duration("start", generator.start));
  ALLOT_RETURN_IF_ERROR(map.read_required_duration("runtime", generator.runtime));
  ALLOT_RETURN_IF_ERROR(read_workload_basics(map, generator.spec));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (generator.name_prefix.empty()) {
    generator.name_prefix = generator.namespace_name;
    if (!generator.spec.priority_class.empty()) {
      generator.name_prefix += "-" + generator.spec.priority_class;
    }
  }
  return generator;
}

Result<ScenarioNodeEvent> decode_node_event(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ScenarioNodeEvent event;
  ALLOT_RETURN_IF_ERROR(map.read_required_duration("at", event.at));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("node", event.node));
  ALLOT_RETURN_IF_ERROR(
      map.read_required("healthy", event.healthy, [](const Field& f) { return f.as_bool(); }));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return event;
}

// `scale: {at, namespace, workload, replicas}`: an endpoint's desired replicas change.
Result<ScenarioScaleEvent> decode_scale_event(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ScenarioScaleEvent event;
  ALLOT_RETURN_IF_ERROR(map.read_required_duration("at", event.at));
  ALLOT_RETURN_IF_ERROR(map.read_required_name("namespace", event.namespace_name));
  ALLOT_RETURN_IF_ERROR(map.read_required_name("workload", event.workload));
  ALLOT_RETURN_IF_ERROR(
      map.read_required("replicas", event.replicas, int_decoder<int32_t>(0, kMaxReplicas)));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return event;
}

// {className: duration, ...}; the class names are checked against the
// policy when the scenario runs (run_simulation).
Result<std::map<std::string, Duration>> decode_latency_by_class(const Field& field) {
  ALLOT_RETURN_IF_ERROR(MapReader::open(field).status());
  std::map<std::string, Duration> latencies;
  for (const DocNode::Entry& entry : field.node().entries()) {
    ALLOT_ASSIGN_OR_RETURN(latencies[entry.key],
                           Field(entry.value, field.child_path(entry.key)).as_duration(Duration()));
  }
  return latencies;
}

}  // namespace

Result<Scenario> decode_scenario(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Scenario scenario;
  scenario.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(map.read(
      "cycle", scenario.cycle, [](const Field& f) { return f.as_duration(Duration::millis(1)); }));
  ALLOT_RETURN_IF_ERROR(map.read("podStartLatency", scenario.pod_start_latency,
                                 [](const Field& f) { return f.as_duration(Duration()); }));
  ALLOT_RETURN_IF_ERROR(map.read("podStartLatencyByPriorityClass",
                                 scenario.pod_start_latency_by_class, decode_latency_by_class));
  ALLOT_RETURN_IF_ERROR(map.read("podStopLatency", scenario.pod_stop_latency,
                                 [](const Field& f) { return f.as_duration(Duration()); }));
  ALLOT_RETURN_IF_ERROR(map.read("workloads", scenario.workloads, [](const Field& f) {
    return decode_list<ScenarioArrival>(f, decode_arrival);
  }));
  ALLOT_RETURN_IF_ERROR(map.read("generators", scenario.generators, [](const Field& f) {
    return decode_list<ScenarioGenerator>(f, decode_generator);
  }));
  ALLOT_RETURN_IF_ERROR(map.read("nodeEvents", scenario.node_events, [](const Field& f) {
    return decode_list<ScenarioNodeEvent>(f, decode_node_event);
  }));
  ALLOT_RETURN_IF_ERROR(map.read("scale", scenario.scale_events, [](const Field& f) {
    return decode_list<ScenarioScaleEvent>(f, decode_scale_event);
  }));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return scenario;
}

}  // namespace allot
