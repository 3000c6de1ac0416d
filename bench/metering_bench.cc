// allot-metering-bench: metering's cost on an admitting pass at scale, A/B in
// one run (issue 14's figure: <= 5%). Each round starts a control plane on a
// fresh SQLite store twice, once with metering on and once off
// (ControlPlaneOptions::metering, allotd --metering), in alternating order:
// 1,000 teams x 4 flavors, 1,000 nodes of 8 GPUs, 8,000 pending one-GPU
// workloads (applied 1,000 per apply), then times the one loop pass that
// admits them all: the plan, its application (8,000 allocation intervals
// opened, with metering on) and the durable commit of its batch, in wall
// time and in the process's CPU time (all threads: the store's writer
// too), which other work on a shared machine inflates less.
//
//   allot-metering-bench [rounds]   (default 5)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "api/manifest_parser.h"
#include "base/clock.h"
#include "base/logger.h"
#include "bench/governed_cluster.h"
#include "service/control/control_plane.h"
#include "store/sqlite/sqlite_store.h"

namespace allot::bench {
namespace {

constexpr int kMeteringTeams = 1000;      // bench_policy_yaml()
constexpr int kMeteringWorkloads = 8000;  // the cluster's GPUs: all admitted in one pass

// Each team's nominal quota in every flavor: 2 GPUs, 32 CPUs, 256 GiB.
BenchPolicySpec metering_policy() {
  BenchPolicySpec spec;
  spec.nominal = "{gpu: {nominal: 2}, cpu: {nominal: 32}, memory: {nominal: 256Gi}}";
  return spec;
}

std::string metering_workloads_yaml(int from, int to) {
  std::string yaml;
  for (int i = from; i < to; ++i) {
    yaml += "---\napiVersion: allot/v1\nkind: Workload\nmetadata: {name: w-" + std::to_string(i) +
            ", namespace: team-" + std::to_string(i % kMeteringTeams) +
            "}\nspec: {priorityClass: batch, podSets: [{count: 1, resources: {gpu: 1, cpu: 4}}], "
            "command: [/bin/true]}\n";
  }
  return yaml;
}

struct PassFigure {
  double ms = 0;
  double cpu_ms = 0;
  size_t admitted = 0;
};

Status apply_yaml(ControlPlane& plane, const std::string& yaml) {
  ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed, parse_manifests_with_documents(yaml));
  return plane.policies().apply(Principal::anonymous_admin(), parsed, false).status();
}

// One admitting pass on a fresh store with metering `on`.
Result<PassFigure> admitting_pass(bool on, const std::string& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ALLOT_ASSIGN_OR_RETURN(std::unique_ptr<SqliteStore> store, SqliteStore::open(dir + "/allot.db"));
  IdleExecutor executor;
  NullLogger logger;
  ManualClock clock(Timestamp::from_millis(1'800'000'000'000));
  ControlPlaneOptions options;
  options.run_loop_thread = false;
  options.metering = on;
  PassFigure figure;
  {
    ControlPlane plane(*store, executor, nullptr, clock, logger, options);
    ALLOT_RETURN_IF_ERROR(plane.start());
    ALLOT_RETURN_IF_ERROR(apply_yaml(plane, bench_policy_yaml(metering_policy())));
    for (int from = 0; from < kMeteringWorkloads; from += 1000) {
      ALLOT_RETURN_IF_ERROR(apply_yaml(plane, metering_workloads_yaml(from, from + 1000)));
    }
    clock.advance(Duration::seconds(30));
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = process_cpu_ms();
    plane.loop().run_once();
    figure.cpu_ms = process_cpu_ms() - cpu_start;
    figure.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ALLOT_ASSIGN_OR_RETURN(const std::vector<AllocationRecord> opened,
                           store->allocations(0, clock.now().ms() + 1));
    figure.admitted = opened.size();
  }
  std::filesystem::remove_all(dir);
  return figure;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

int run(int rounds) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("allot-metering-bench-" + std::to_string(::getpid())))
                              .string();
  std::vector<double> on_ms;
  std::vector<double> off_ms;
  std::vector<double> on_cpu;
  std::vector<double> off_cpu;
  for (int round = 0; round < rounds; ++round) {
    for (const bool on : {round % 2 == 0, round % 2 != 0}) {
      Result<PassFigure> figure = admitting_pass(on, dir);
      if (!figure.ok()) {
        std::fprintf(stderr, "%s\n", figure.status().to_string().c_str());
        return 1;
      }
      (on ? on_ms : off_ms).push_back(figure->ms);
      (on ? on_cpu : off_cpu).push_back(figure->cpu_ms);
      std::printf(
          "round %d metering %-3s: admitting pass %.1f ms, CPU %.1f ms (%zu intervals "
          "stored)\n",
          round + 1, on ? "on" : "off", figure->ms, figure->cpu_ms, figure->admitted);
    }
  }
  const auto summary = [](const char* what, const std::vector<double>& on,
                          const std::vector<double>& off) {
    const double on_median = median(on);
    const double off_median = median(off);
    std::printf(
        "%s, median: on %.1f ms, off %.1f ms, overhead %+.1f%% (min..max on %.1f..%.1f, "
        "off %.1f..%.1f)\n",
        what, on_median, off_median, (on_median - off_median) / off_median * 100,
        *std::min_element(on.begin(), on.end()), *std::max_element(on.begin(), on.end()),
        *std::min_element(off.begin(), off.end()), *std::max_element(off.begin(), off.end()));
  };
  summary("wall", on_ms, off_ms);
  summary("CPU", on_cpu, off_cpu);
  return 0;
}

}  // namespace
}  // namespace allot::bench

int main(int argc, char** argv) {
  return allot::bench::run(argc > 1 ? std::max(1, std::atoi(argv[1])) : 5);
}
