#include "bench/load_cluster.h"

namespace allot::bench {

std::string load_policy_yaml(const LoadPolicy& policy) {
  std::string yaml = R"(apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: )" +
                     policy.cycle + R"(}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: local, flavor: gpu, count: )" +
                     std::to_string(policy.nodes) +
                     R"(, resources: {gpu: 8, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 100, preemptionGracePeriod: 0s}
)";
  const int32_t share = policy.nodes * 8 / kLoadTeams;
  for (int t = 0; t < kLoadTeams; ++t) {
    const int32_t nominal = t == 0 ? policy.first_team_nominal : share;
    yaml += "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: t" + std::to_string(t) +
            "}\nspec:\n  cohort: org\n  quota: [{flavor: gpu, resources: {gpu: {nominal: " +
            std::to_string(nominal) + "}}}]\n";
  }
  return yaml;
}

std::string load_workload_json(const LoadWorkload& workload) {
  return R"({"apiVersion":"allot/v1","kind":"Workload","metadata":{"name":")" + workload.name +
         R"("},"spec":{"priorityClass":"batch","podSets":[{"count":)" +
         std::to_string(workload.pods) + R"(,"resources":{"gpu":)" +
         std::to_string(workload.gpus_per_pod) + R"(}}],"command":["sleep",")" +
         std::to_string(workload.sleep_s) + R"("]}})";
}

std::string workloads_path(const std::string& key) {
  const size_t slash = key.find('/');
  if (slash == std::string::npos) return "/api/v1/namespaces/" + key + "/workloads";
  return "/api/v1/namespaces/" + key.substr(0, slash) + "/workloads/" + key.substr(slash + 1);
}

std::string load_node_name(int32_t index) { return "pool-" + std::to_string(index); }

}  // namespace allot::bench
