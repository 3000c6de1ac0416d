// ScaleConfig: the size and seed of the synthetic cluster of the scale test
// (the figures: 10,000 nodes of 8 GPUs in 4 flavors, 1,000 teams in a
// 3-level cohort tree, 100,000 pending workloads).
//
// Contract: a plain value; every bench figure is a deterministic function of
// it (randomness comes from std::mt19937_64 seeded with `seed`).
#pragma once

#include <cstdint>

namespace allot::bench {

inline constexpr int32_t kFlavorCount = 4;
inline constexpr int32_t kGpusPerNode = 8;
inline constexpr int64_t kCpuCoresPerNode = 96;
inline constexpr int64_t kMemoryGiPerNode = 1024;
inline constexpr int32_t kNodesPerRack = 4;
inline constexpr int32_t kRacksPerBlock = 8;
// Fan-out of the cohort tree: root -> kCohortFanOut cohorts -> kCohortFanOut^2
// cohorts -> kTeamsPerLeafCohort teams each (1,000 teams: 1 + 10 + 100 cohorts).
inline constexpr int32_t kCohortFanOut = 10;
inline constexpr int32_t kTeamsPerLeafCohort = 10;
// The preemptor of the preemption test: one gang of 8 pods x 8 GPUs.
inline constexpr int32_t kUrgentGangPods = 8;
// Nominal GPUs per flavor of each urgent team: room for one urgent gang.
inline constexpr int64_t kUrgentNominalGpus = kUrgentGangPods * kGpusPerNode;

struct ScaleConfig {
  uint64_t seed = 1;
  int32_t pending = 100'000;
  int32_t nodes = 10'000;  // split evenly over the kFlavorCount flavors
  int32_t teams = 1'000;   // regular teams; each gets nodes * 8 / teams GPUs of quota
  // Extra teams that queue nothing, so that others borrow their quota; they
  // submit the urgent gang of the preemption test.
  int32_t urgent_teams = 4;
  int32_t runs = 5;               // plan() runs per median
  int32_t preemption_runs = 100;  // urgent gangs timed
  bool fair_sharing = false;      // weighted DRS ordering instead of classic
  bool consolidation = false;     // scheduling.consolidation: WithinNominal
  // Which measurements to take (`--phases`): the first pass is always planned
  // once, since the steady state is built from it, but timed `runs` times
  // only with `full`.
  bool phase_full = true;
  bool phase_steady = true;
  bool phase_preemption = true;
  bool phase_small = true;  // the 3,000-pending pass
};

}  // namespace allot::bench
