#include "bench/micro_bench.h"

#include <memory>
#include <random>

#include <benchmark/benchmark.h>

#include "bench/scale_policy.h"
#include "bench/workload_generator.h"
#include "scheduler/capacity_index.h"
#include "scheduler/gang_placer.h"
#include "scheduler/quota_tree.h"
#include "scheduler/scheduler.h"
#include "scheduler/topology.h"

namespace allot::bench {
namespace {

constexpr Timestamp kMicroNow = Timestamp::from_millis(1'700'000'000'000);
constexpr uint64_t kSeed = 1;
constexpr int64_t kMicroGi = int64_t{1} << 30;

ResourceVector micro_pod_of(int64_t gpus) {
  return ResourceVector(gpus, gpus * 12'000, gpus * 64 * kMicroGi);
}

// The default scale cluster, compiled once for all benchmarks that use it.
const std::shared_ptr<const CompiledPolicy>& large_policy() {
  static const auto kPolicy = compile_scale_policy(ScaleConfig{});
  return kPolicy;
}

void quota_tree_fits(benchmark::State& state) {
  const CompiledPolicy& policy = *large_policy();
  QuotaTree tree(policy);
  std::mt19937_64 rng(kSeed);
  std::uniform_int_distribution<int64_t> gpus(0, 30);
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    for (FlavorIndex f : policy.team(TeamIndex(t)).flavor_order) {
      tree.add_usage(TeamIndex(t), f, micro_pod_of(gpus(rng)));
    }
  }
  const ResourceVector request = micro_pod_of(8);
  int32_t i = 0;
  for (auto _ : state) {
    const TeamIndex team(static_cast<uint32_t>(i % policy.team_count()));
    const FlavorIndex flavor(static_cast<uint16_t>(i % policy.flavor_count()));
    benchmark::DoNotOptimize(tree.fits(team, flavor, request));
    ++i;
  }
}
BENCHMARK(quota_tree_fits);

// GangPlacer::place for state.range(0) GPUs (one pod below 8 GPUs, else
// gangs of 8-GPU pods) on the 10,000-node cluster with every node holding a
// random 0..8 GPUs of running work.
void gang_placer_place(benchmark::State& state) {
  const CompiledPolicy& policy = *large_policy();
  const Topology topology(policy);
  CapacityIndex capacity(policy, topology, {});
  std::mt19937_64 rng(kSeed);
  std::uniform_int_distribution<int64_t> used(0, kGpusPerNode);
  for (int32_t n = 0; n < policy.node_count(); ++n) {
    const NodeIndex node(static_cast<uint32_t>(n));
    const int64_t gpus = used(rng);
    if (gpus > 0) capacity.allocate(node, micro_pod_of(gpus), capacity.pick_gpus(node, gpus));
  }
  const int64_t gpus = state.range(0);
  PodSetRequest set;
  set.count = static_cast<int32_t>(gpus < kGpusPerNode ? 1 : gpus / kGpusPerNode);
  set.min_count = set.count;
  set.per_pod = micro_pod_of(gpus < kGpusPerNode ? gpus : kGpusPerNode);
  const std::vector<PodSetRequest> pod_sets = {set};
  const std::vector<int32_t> counts = {set.count};
  GangPlacer placer(capacity);
  int32_t i = 0;
  for (auto _ : state) {
    const FlavorIndex flavor(static_cast<uint16_t>(i % policy.flavor_count()));
    auto placed = placer.place({WorkloadId(1), flavor, pod_sets, counts});
    if (!placed) state.SkipWithError("no placement");
    benchmark::DoNotOptimize(placed);
    ++i;
  }
}
BENCHMARK(gang_placer_place)->Arg(1)->Arg(64);

// A full plan() over 1,000 pending workloads on 100 nodes and 10 teams.
void plan_small_cluster(benchmark::State& state) {
  ScaleConfig config;
  config.nodes = 100;
  config.teams = 10;
  config.urgent_teams = 0;
  config.pending = 1'000;
  const auto policy = compile_scale_policy(config);
  const Scheduler scheduler(policy);
  Snapshot snapshot;
  snapshot.now = kMicroNow;
  snapshot.pending =
      WorkloadGenerator(*policy, config, kMicroNow).pending(config.pending, kSeed, 1);
  for (auto _ : state) {
    Plan plan = scheduler.plan(snapshot);
    benchmark::DoNotOptimize(plan.admissions.data());
  }
  state.SetItemsProcessed(state.iterations() * config.pending);
}
BENCHMARK(plan_small_cluster)->Unit(benchmark::kMillisecond);

}  // namespace

int run_micro(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace allot::bench
