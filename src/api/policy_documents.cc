#include "api/policy_documents.h"

#include <utility>

#include "api/resource_fields.h"

namespace allot {
namespace {

constexpr EnumName<BackendKind> kBackendNames[] = {
    {"local", BackendKind::kLocal},
    {"slurm", BackendKind::kSlurm},
    {"kubernetes", BackendKind::kKubernetes},
};

constexpr EnumName<PreemptionPolicy> kPreemptionPolicyNames[] = {
    {"PreemptLowerPriority", PreemptionPolicy::kPreemptLowerPriority},
    {"Never", PreemptionPolicy::kNever},
};

constexpr EnumName<ConsolidationPolicy> kConsolidationNames[] = {
    {"Never", ConsolidationPolicy::kNever},
    {"WithinNominal", ConsolidationPolicy::kWithinNominal},
};

Result<SchedulingSettings> decode_scheduling(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  SchedulingSettings settings;
  ALLOT_RETURN_IF_ERROR(map.read_bool("fairSharing", settings.fair_sharing));
  ALLOT_RETURN_IF_ERROR(map.read_duration("cycle", settings.cycle, Duration::millis(1)));
  ALLOT_RETURN_IF_ERROR(map.read_duration("minCycleInterval", settings.min_cycle_interval));
  ALLOT_RETURN_IF_ERROR(
      map.read_enum("consolidation", settings.consolidation, kConsolidationNames));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (settings.min_cycle_interval > settings.cycle) {
    return field.error("minCycleInterval (" + settings.min_cycle_interval.to_string() +
                       ") must not exceed cycle (" + settings.cycle.to_string() +
                       "): a cycle runs at least once per cycle");
  }
  return settings;
}

// spec.slurm: where the Slurm cluster is; clusterName and partition required.
Result<SlurmSettings> decode_slurm(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  SlurmSettings slurm;
  ALLOT_RETURN_IF_ERROR(map.read_string("clusterName", slurm.cluster_name));
  ALLOT_RETURN_IF_ERROR(map.read_string("partition", slurm.partition));
  ALLOT_RETURN_IF_ERROR(map.read_string("rest", slurm.rest_url));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (slurm.cluster_name.empty() || slurm.partition.empty()) {
    return field.error("a Slurm cluster needs clusterName (Slurm's ClusterName) and partition");
  }
  if (!slurm.rest_url.empty() && !slurm.rest_url.starts_with("http://") &&
      !slurm.rest_url.starts_with("https://")) {
    return field.error("rest must be slurmrestd's URL (http:// or https://)");
  }
  return slurm;
}

Result<FlavorPrice> decode_price(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  FlavorPrice price;
  ALLOT_RETURN_IF_ERROR(map.read_number("gpuHour", price.gpu_hour, 0));
  ALLOT_RETURN_IF_ERROR(map.read_number("cpuHour", price.cpu_hour, 0));
  ALLOT_RETURN_IF_ERROR(map.read_number("memoryGiBHour", price.memory_gib_hour, 0));
  ALLOT_RETURN_IF_ERROR(map.read_string("currency", price.currency));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return price;
}

Result<PoolTopology> decode_topology(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  PoolTopology topology;
  ALLOT_RETURN_IF_ERROR(map.read_int("nodesPerRack", topology.nodes_per_rack, 0));
  ALLOT_RETURN_IF_ERROR(map.read_int("racksPerBlock", topology.racks_per_block, 0));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return topology;
}

}  // namespace

Result<Cluster> decode_cluster(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Cluster cluster;
  cluster.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(map.read_enum("backend", cluster.backend, kBackendNames));
  ALLOT_RETURN_IF_ERROR(map.read_string("region", cluster.region));
  ALLOT_RETURN_IF_ERROR(map.read_string("account", cluster.account));
  ALLOT_RETURN_IF_ERROR(map.read_string("orchestratorVersion", cluster.orchestrator_version));
  ALLOT_RETURN_IF_ERROR(map.read_string("maxDataClassification", cluster.max_data_classification));
  ALLOT_RETURN_IF_ERROR(map.read("scheduling", cluster.scheduling, decode_scheduling));
  const bool has_slurm = spec.node().is_map() && spec.node().find("slurm").has_value();
  ALLOT_RETURN_IF_ERROR(map.read("slurm", cluster.slurm, decode_slurm));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (cluster.backend != BackendKind::kSlurm && has_slurm) {
    return spec.error("slurm is for a Cluster with backend slurm only");
  }
  return cluster;
}

Result<ResourceFlavor> decode_resource_flavor(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  ResourceFlavor flavor;
  flavor.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(map.read_string_map("nodeLabels", flavor.node_labels));
  ALLOT_RETURN_IF_ERROR(map.read("price", flavor.price, decode_price));
  ALLOT_RETURN_IF_ERROR(map.read_string_list("topologyLevels", flavor.topology_levels));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return flavor;
}

Result<NodePool> decode_node_pool(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  NodePool pool;
  pool.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(map.read_string("cluster", pool.cluster));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("flavor", pool.flavor));
  ALLOT_RETURN_IF_ERROR(
      map.read_required("count", pool.count, int_decoder<int32_t>(0, kMaxNodesPerPool)));
  ALLOT_RETURN_IF_ERROR(map.read_required("resources", pool.resources, decode_resources));
  ALLOT_RETURN_IF_ERROR(map.read("topology", pool.topology, decode_topology));
  ALLOT_RETURN_IF_ERROR(map.read_string_list("nodeNames", pool.node_names));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return pool;
}

Result<Cohort> decode_cohort(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Cohort cohort;
  cohort.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(map.read_string("parent", cohort.parent));
  ALLOT_RETURN_IF_ERROR(map.read_number("fairShareWeight", cohort.fair_share_weight, 0));
  ALLOT_RETURN_IF_ERROR(map.read("quota", cohort.quota, decode_quota));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return cohort;
}

Result<PriorityClass> decode_priority_class(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  PriorityClass priority;
  priority.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(map.read_required("value", priority.value, int_decoder<int32_t>()));
  ALLOT_RETURN_IF_ERROR(
      map.read_enum("preemptionPolicy", priority.preemption_policy, kPreemptionPolicyNames));
  ALLOT_RETURN_IF_ERROR(map.read_seconds("minRuntimeSeconds", priority.min_runtime));
  ALLOT_RETURN_IF_ERROR(
      map.read_duration("preemptionGracePeriod", priority.preemption_grace_period));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return priority;
}

}  // namespace allot
