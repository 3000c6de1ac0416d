#include "bench/governed_cluster.h"

#include <time.h>

namespace allot::bench {

std::string bench_policy_yaml(const BenchPolicySpec& spec) {
  std::string yaml =
      "apiVersion: allot/v1\nkind: Cluster\nmetadata: {name: c}\nspec: {backend: local}\n"
      "---\napiVersion: allot/v1\nkind: PriorityClass\nmetadata: {name: batch}\n"
      "spec: {value: 10}\n";
  for (int f = 0; f < spec.flavors; ++f) {
    const std::string flavor = "flavor-" + std::to_string(f);
    yaml += "---\napiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: " + flavor +
            "}\nspec: {price: {currency: USD, gpuHour: 2.5, cpuHour: 0.05}}\n";
    yaml += "---\napiVersion: allot/v1\nkind: NodePool\nmetadata: {name: pool-" +
            std::to_string(f) + "}\nspec: {cluster: c, flavor: " + flavor +
            ", count: 250, resources: {gpu: 8, cpu: 128, memory: 1Ti}}\n";
  }
  for (int c = 0; c < spec.cohorts; ++c) {
    yaml += "---\napiVersion: allot/v1\nkind: Cohort\nmetadata: {name: cohort-" +
            std::to_string(c) + "}\n";
  }
  for (int t = 0; t < spec.teams; ++t) {
    yaml += "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: team-" + std::to_string(t) +
            "}\nspec:\n  cohort: cohort-" + std::to_string(t % spec.cohorts) + "\n  quota:\n";
    for (int f = 0; f < spec.flavors; ++f) {
      yaml += "  - {flavor: flavor-" + std::to_string(f) + ", resources: " + spec.nominal + "}\n";
    }
  }
  return yaml;
}

double process_cpu_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

}  // namespace allot::bench
