// allot-metrics-bench: a /metrics scrape at issue 14's scale: 1,000 teams x
// 4 flavors (12,000 quota rows), one admitted workload per team (admission
// waits, usage, priced cost this month), 1,000 nodes. Times MetricsService's
// snapshot and its rendering together, as GET /metrics does, and prints the
// size of the text. Goal: <= 50 ms and <= 5 MB a scrape.
//
//   allot-metrics-bench [scrapes]   (default 20)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "api/manifest_parser.h"
#include "api/workload_submission.h"
#include "backends/executor.h"
#include "base/clock.h"
#include "base/logger.h"
#include "service/control/control_plane.h"
#include "service/metrics/prometheus_text.h"
#include "store/memory_store.h"

namespace allot::bench {
namespace {

constexpr int kTeams = 1000;
constexpr int kFlavors = 4;

// Launches nothing and reports nothing: admitted work stays admitted.
class IdleExecutor final : public Executor {
 public:
  void launch(const WorkloadLaunch& /*launch*/) override {}
  void stop(WorkloadId /*workload*/, Duration /*grace*/) override {}
  Result<std::string> read_log(PodId /*pod*/, int64_t /*offset*/, int64_t /*max*/) override {
    return std::string();
  }
  [[nodiscard]] std::string log_location(PodId /*pod*/) const override { return ""; }
};

std::string policy_yaml() {
  std::string yaml =
      "apiVersion: allot/v1\nkind: Cluster\nmetadata: {name: c}\nspec: {backend: local}\n"
      "---\napiVersion: allot/v1\nkind: PriorityClass\nmetadata: {name: batch}\n"
      "spec: {value: 10}\n";
  for (int f = 0; f < kFlavors; ++f) {
    const std::string flavor = "flavor-" + std::to_string(f);
    yaml += "---\napiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: " + flavor +
            "}\nspec: {price: {currency: USD, gpuHour: 2.5, cpuHour: 0.05}}\n";
    yaml += "---\napiVersion: allot/v1\nkind: NodePool\nmetadata: {name: pool-" +
            std::to_string(f) + "}\nspec: {cluster: c, flavor: " + flavor +
            ", count: 250, resources: {gpu: 8, cpu: 128, memory: 1Ti}}\n";
  }
  for (int c = 0; c < 10; ++c) {
    yaml += "---\napiVersion: allot/v1\nkind: Cohort\nmetadata: {name: cohort-" +
            std::to_string(c) + "}\n";
  }
  for (int t = 0; t < kTeams; ++t) {
    yaml += "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: team-" + std::to_string(t) +
            "}\nspec:\n  cohort: cohort-" + std::to_string(t % 10) + "\n  quota:\n";
    for (int f = 0; f < kFlavors; ++f) {
      yaml += "  - {flavor: flavor-" + std::to_string(f) +
              ", resources: {gpu: {nominal: 8}, cpu: {nominal: 128}, memory: {nominal: 1Ti}}}\n";
    }
  }
  return yaml;
}

int run(int scrapes) {
  MemoryStore store;
  IdleExecutor executor;
  NullLogger logger;
  ManualClock clock(Timestamp::from_millis(1'800'000'000'000));
  ControlPlaneOptions options;
  options.run_loop_thread = false;
  ControlPlane plane(store, executor, nullptr, clock, logger, options);
  if (Status s = plane.start(); !s.ok())
    return std::fprintf(stderr, "%s\n", s.to_string().c_str()), 1;
  const Principal admin = Principal::anonymous_admin();
  Result<ParsedManifests> parsed = parse_manifests_with_documents(policy_yaml());
  if (!parsed.ok()) return std::fprintf(stderr, "%s\n", parsed.status().to_string().c_str()), 1;
  if (auto applied = plane.policies().apply(admin, *parsed, false); !applied.ok()) {
    return std::fprintf(stderr, "%s\n", applied.status().to_string().c_str()), 1;
  }
  for (int t = 0; t < kTeams; ++t) {
    const std::string ns = "team-" + std::to_string(t);
    const WorkloadId id = plane.workloads().allocate_id();
    Result<Workload> workload = decode_workload_submission(
        "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: w}\nspec:\n  priorityClass: "
        "batch\n  podSets: [{count: "
        "1, resources: {gpu: 4, cpu: 16}}]\n  command: [/bin/true]\n",
        ns, id);
    if (!workload.ok())
      return std::fprintf(stderr, "%s\n", workload.status().to_string().c_str()), 1;
    if (auto created = plane.workloads().create(admin, *workload, id); !created.ok()) {
      return std::fprintf(stderr, "%s\n", created.status().to_string().c_str()), 1;
    }
  }
  clock.advance(Duration::seconds(30));
  plane.loop().run_once();
  clock.advance(Duration::hours(1));
  std::vector<double> ms;
  size_t bytes = 0;
  for (int i = 0; i < scrapes; ++i) {
    const auto start = std::chrono::steady_clock::now();
    Result<MetricsSnapshot> snapshot = plane.metrics().snapshot(admin);
    if (!snapshot.ok())
      return std::fprintf(stderr, "%s\n", snapshot.status().to_string().c_str()), 1;
    const std::string text = render_prometheus(*snapshot);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
    bytes = text.size();
  }
  std::sort(ms.begin(), ms.end());
  std::printf("metrics scrape, %d teams x %d flavors: p50 %.1f ms, max %.1f ms, %.2f MB\n", kTeams,
              kFlavors, ms[ms.size() / 2], ms.back(), static_cast<double>(bytes) / 1e6);
  return 0;
}

}  // namespace
}  // namespace allot::bench

int main(int argc, char** argv) {
  return allot::bench::run(argc > 1 ? std::max(1, std::atoi(argv[1])) : 20);
}
