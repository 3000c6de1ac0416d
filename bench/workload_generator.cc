#include "bench/workload_generator.h"

#include <random>

#include "bench/scale_policy.h"

namespace allot::bench {
namespace {

constexpr int64_t kGeneratorGi = int64_t{1} << 30;
constexpr int64_t kGeneratorCpuMillisPerGpu = 12'000;
constexpr int64_t kMemoryPerGpu = 64 * kGeneratorGi;
constexpr int64_t kHourMs = 3'600'000;

ResourceVector pod_of(int64_t gpus) {
  return ResourceVector(gpus, gpus * kGeneratorCpuMillisPerGpu, gpus * kMemoryPerGpu);
}

PodSetRequest pod_set(int32_t pods, int64_t gpus_per_pod) {
  PodSetRequest set;
  set.count = pods;
  set.min_count = pods;  // gangs: all or nothing
  set.per_pod = pod_of(gpus_per_pod);
  return set;
}

// The pod set of one workload, following the mix of the header comment.
PodSetRequest draw_pod_set(std::mt19937_64& rng) {
  const int32_t roll = std::uniform_int_distribution<int32_t>(0, 99)(rng);
  if (roll < 40) return pod_set(1, 1);
  if (roll < 60) return pod_set(1, 2);
  if (roll < 75) return pod_set(1, 4);
  if (roll < 90) return pod_set(1, kGpusPerNode);
  return pod_set(std::uniform_int_distribution<int32_t>(2, kUrgentGangPods)(rng), kGpusPerNode);
}

}  // namespace

WorkloadGenerator::WorkloadGenerator(const CompiledPolicy& policy, const ScaleConfig& config,
                                     Timestamp now)
    : policy_(&policy), config_(config), now_(now) {
  for (int32_t i = 0; i < config.teams; ++i) {
    regular_teams_.push_back(policy.team_by_name(regular_team_name(i)));
  }
  for (int32_t i = 0; i < config.urgent_teams; ++i) {
    urgent_teams_.push_back(policy.team_by_name(urgent_team_name(i)));
  }
  for (const char* name : kPriorityClassNames)
    classes_.push_back(policy.priority_class_by_name(name));
}

std::vector<PendingWorkload> WorkloadGenerator::pending(int32_t count, uint64_t seed,
                                                        uint64_t first_id) const {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> queued_ago(0, kHourMs - 1);
  std::uniform_int_distribution<int64_t> runtime_minutes(10, int64_t{24} * 60);
  std::uniform_int_distribution<size_t> class_of(0, classes_.size() - 1);
  std::bernoulli_distribution has_runtime(0.5);
  std::vector<PendingWorkload> out;
  out.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    PendingWorkload w;
    w.id = WorkloadId(first_id + static_cast<uint64_t>(i));
    w.team = regular_teams_[static_cast<size_t>(i) % regular_teams_.size()];
    w.priority_class = classes_[class_of(rng)];
    w.priority = policy_->priority_class(w.priority_class).value;
    w.queued_at = now_ - Duration::millis(queued_ago(rng));
    w.pod_sets.push_back(draw_pod_set(rng));
    if (has_runtime(rng)) w.max_runtime = Duration::minutes(runtime_minutes(rng));
    out.push_back(std::move(w));
  }
  return out;
}

PendingWorkload WorkloadGenerator::urgent_gang(int32_t run, WorkloadId id) const {
  const auto teams = static_cast<int32_t>(urgent_teams_.size());
  PendingWorkload w;
  w.id = id;
  w.team = urgent_teams_[static_cast<size_t>(run % teams)];
  w.priority_class = classes_.back();
  w.priority = policy_->priority_class(w.priority_class).value;
  w.queued_at = now_ - Duration::seconds(1 + run);
  w.pod_sets.push_back(pod_set(kUrgentGangPods, kGpusPerNode));
  const std::vector<FlavorIndex>& flavor_order = policy_->team(w.team).flavor_order;
  w.pod_sets.back().required_flavor =
      flavor_order[static_cast<size_t>((run / teams) % static_cast<int32_t>(flavor_order.size()))];
  w.max_runtime = Duration::hours(4);
  return w;
}

}  // namespace allot::bench
