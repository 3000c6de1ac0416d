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
#include "base/clock.h"
#include "base/logger.h"
#include "bench/governed_cluster.h"
#include "service/control/control_plane.h"
#include "service/metrics/prometheus_text.h"
#include "store/memory_store.h"

namespace allot::bench {
namespace {

constexpr int kTeams = 1000;
constexpr int kFlavors = 4;

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
  BenchPolicySpec spec;
  spec.teams = kTeams;
  spec.flavors = kFlavors;
  spec.cohorts = 10;
  Result<ParsedManifests> parsed = parse_manifests_with_documents(bench_policy_yaml(spec));
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
