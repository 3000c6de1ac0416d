// Property tests of consolidation (scheduler/cycle_consolidation.cc) over
// random split clusters: 8 nodes x 8 GPUs where a team within its nominal
// ("owed") asks for whole nodes, another team ("steady") runs small jobs
// within its nominal on many nodes, and a third ("borrower") may borrow.
//
// - Sound: work moved is single-node work within its team's nominal; work
//   reclaimed is a borrower's, within Kueue's bound; with every victim gone,
//   the owed gang's pods fit the nodes held for it and the moved work fits the
//   other nodes' free room, all at once.
// - Complete where the answer is known: with 1-GPU jobs and no borrower, a
//   whole-node job is served (admitted or preempting) whenever the free GPUs
//   add up to a node.
// - Kept: once its victims have stopped, the owed gang is admitted on the
//   nodes held for it, and the moved work runs again, in the same cycle; no
//   second consolidation happens while it waits.
// - Off by default: with consolidation Never nothing is ever moved.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "flat_gpu_world.h"
#include "scheduler/scheduler.h"
#include "snapshot_builders.h"

namespace allot {
namespace {

using testing::flat_gpu_policy;
using testing::gpu_gang;
using testing::gpu_job;

constexpr uint32_t kOwed = 0;
constexpr uint32_t kSteady = 1;
constexpr uint32_t kBorrower = 2;

struct MoveWorld {
  std::vector<int64_t> nominal;  // by team
  Snapshot snapshot;             // the running work, and the owed gang pending
};

// `ones`: every job takes 1 GPU; `borrowers`: the borrower runs work above its nominal.
std::optional<MoveWorld> move_world(std::mt19937_64& rng, bool ones, bool borrowers, int32_t pods) {
  MoveWorld world;
  Snapshot& s = world.snapshot;
  s.now = Timestamp() + Duration::hours(2);
  uint64_t id = 1;
  std::vector<int64_t> used_by(3, 0);
  for (int32_t node = 0; node < 8; ++node) {
    int64_t used = 0;
    const auto job = [&](uint32_t team, int64_t gpus) {
      const uint64_t mask = ((uint64_t{1} << gpus) - 1) << used;
      const Timestamp at = Timestamp() + Duration::seconds(static_cast<int64_t>(rng() % 5000));
      s.admitted.push_back(gpu_job(id++, team, gpus, static_cast<uint32_t>(node), mask, at));
      used += gpus;
      used_by[team] += gpus;
    };
    for (int k = static_cast<int>(rng() % 3); k > 0; --k) job(kSteady, ones ? 1 : 1 + rng() % 3);
    while (borrowers && used < 8 && rng() % 3 != 0) {
      int64_t gpus = ones ? 1 : int64_t{1} << (rng() % 3);
      gpus = std::min(gpus, 8 - used);
      job(kBorrower, gpus);
    }
  }
  const int64_t excess = borrowers ? static_cast<int64_t>(rng() % 8) : 0;
  const int64_t borrower_nominal = std::max<int64_t>(0, used_by[kBorrower] - excess);
  const int64_t owed_nominal = 8 * pods;
  const int64_t steady_nominal = 64 - owed_nominal - borrower_nominal;
  if (steady_nominal < used_by[kSteady]) return std::nullopt;
  world.nominal = {owed_nominal, steady_nominal, borrower_nominal};
  s.pending.push_back(gpu_gang(id, kOwed, pods));
  return world;
}

std::shared_ptr<const CompiledPolicy> policy_of(const MoveWorld& world, ConsolidationPolicy on) {
  return flat_gpu_policy({{"owed", world.nominal[kOwed]},
                          {"steady", world.nominal[kSteady]},
                          {"borrower", world.nominal[kBorrower]}},
                         on);
}

const AdmittedWorkload& running(const Snapshot& s, WorkloadId id) {
  const auto it = std::find_if(s.admitted.begin(), s.admitted.end(),
                               [&](const AdmittedWorkload& a) { return a.id == id; });
  EXPECT_NE(it, s.admitted.end());
  return *it;
}

// Whether `items` (GPUs) fit `room` (free GPUs per node) all at once: an exact search.
bool pack(std::vector<int64_t>& items, size_t next, std::vector<int64_t>& room) {
  if (next == items.size()) return true;
  for (int64_t& free : room) {
    if (free < items[next]) continue;
    free -= items[next];
    const bool packed = pack(items, next + 1, room);
    free += items[next];
    if (packed) return true;
  }
  return false;
}

// The soundness checks; returns whether the plan moved work.
bool check_sound(const MoveWorld& world, const Plan& plan, uint64_t seed) {
  const Snapshot& s = world.snapshot;
  std::vector<int64_t> usage(3, 0);
  for (const AdmittedWorkload& a : s.admitted) usage[a.team.value()] += a.usage().gpu();
  std::vector<int64_t> taken(3, 0);
  std::vector<int64_t> largest(3, 0);
  std::vector<int64_t> free(8, 8);
  for (const AdmittedWorkload& a : s.admitted) {
    free[a.assignment[0].pods[0].node.value()] -= a.usage().gpu();
  }
  std::vector<int64_t> moved;
  for (const Preemption& p : plan.preemptions) {
    const AdmittedWorkload& victim = running(s, p.victim);
    const uint32_t team = victim.team.value();
    free[victim.assignment[0].pods[0].node.value()] += victim.usage().gpu();
    if (p.reason == PreemptionReason::kConsolidation) {
      EXPECT_LE(usage[team], world.nominal[team]) << "seed " << seed << ": moved a borrower's work";
      moved.push_back(victim.usage().gpu());
    } else {
      EXPECT_EQ(p.reason, PreemptionReason::kReclaimWithinCohort) << "seed " << seed;
      EXPECT_GT(usage[team], world.nominal[team])
          << "seed " << seed << ": reclaimed within nominal";
      taken[team] += victim.usage().gpu();
      largest[team] = std::max(largest[team], victim.usage().gpu());
    }
  }
  for (uint32_t team = 0; team < 3; ++team) {
    if (taken[team] == 0) continue;
    EXPECT_GT(usage[team] - taken[team] + largest[team], world.nominal[team])
        << "seed " << seed << ": a reclaim beyond Kueue's bound";
  }
  if (moved.empty()) return false;
  std::set<uint32_t> held;
  for (const Reservation& r : plan.reservations) {
    if (r.workload == s.pending[0].id) held.insert(r.nodes[0].value());
  }
  EXPECT_EQ(static_cast<int32_t>(held.size()), s.pending[0].pod_sets[0].count) << "seed " << seed;
  std::vector<int64_t> room;
  for (uint32_t n = 0; n < 8; ++n) {
    if (held.contains(n)) {
      EXPECT_EQ(free[n], 8) << "seed " << seed << ": a held node not cleared whole";
    } else {
      room.push_back(free[n]);
    }
  }
  std::sort(moved.rbegin(), moved.rend());
  EXPECT_TRUE(pack(moved, 0, room)) << "seed " << seed << ": the moved work fits nowhere";
  return true;
}

bool served(const Plan& plan, WorkloadId w) {
  return std::any_of(plan.admissions.begin(), plan.admissions.end(),
                     [&](const Admission& a) { return a.workload == w; }) ||
         std::any_of(plan.preemptions.begin(), plan.preemptions.end(),
                     [&](const Preemption& p) { return p.beneficiary == w; });
}

TEST(ConsolidationProperties, MovesOnlyWorkWithinNominalThatFitsElsewhereAndReclaimsWithinBound) {
  int moved = 0;
  int with_reclaim = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    std::mt19937_64 rng(seed);
    const int32_t pods = 1 + static_cast<int32_t>(rng() % 2);
    const std::optional<MoveWorld> world = move_world(rng, rng() % 2 == 0, true, pods);
    if (!world) continue;
    const Plan plan =
        Scheduler(policy_of(*world, ConsolidationPolicy::kWithinNominal)).plan(world->snapshot);
    if (check_sound(*world, plan, seed)) {
      ++moved;
      with_reclaim += std::any_of(
          plan.preemptions.begin(), plan.preemptions.end(),
          [](const Preemption& p) { return p.reason == PreemptionReason::kReclaimWithinCohort; });
    }
    const Plan never =
        Scheduler(policy_of(*world, ConsolidationPolicy::kNever)).plan(world->snapshot);
    EXPECT_TRUE(std::none_of(
        never.preemptions.begin(), never.preemptions.end(),
        [](const Preemption& p) { return p.reason == PreemptionReason::kConsolidation; }))
        << "seed " << seed << ": moved work with consolidation Never";
  }
  EXPECT_GT(moved, 40) << "the random worlds rarely moved work";
  EXPECT_GT(with_reclaim, 10) << "the random worlds rarely reclaimed room for moved work";
}

TEST(ConsolidationProperties, AWholeNodeJobIsServedWheneverTheFreeGpusAddUpToANode) {
  int owed_split = 0;
  for (uint64_t seed = 1000; seed <= 1300; ++seed) {
    std::mt19937_64 rng(seed);
    const std::optional<MoveWorld> world = move_world(rng, true, false, 1);
    if (!world) continue;
    int64_t used = 0;
    for (const AdmittedWorkload& a : world->snapshot.admitted) used += a.usage().gpu();
    const Plan plan =
        Scheduler(policy_of(*world, ConsolidationPolicy::kWithinNominal)).plan(world->snapshot);
    check_sound(*world, plan, seed);
    const bool whole_node_free = world->snapshot.admitted.size() < 8;  // some node may be empty
    if (64 - used >= 8) {
      owed_split += !whole_node_free;
      EXPECT_TRUE(served(plan, world->snapshot.pending[0].id))
          << "seed " << seed << ": " << 64 - used << " free GPUs, the whole-node job not served";
    }
  }
  EXPECT_GT(owed_split, 20) << "the random worlds rarely split the free GPUs";
}

// Carries a plan out as the simulator does, `now` a cycle later: victims stop
// when their grace period has passed (then requeued), admissions start, the
// plan's reservations are held in the next snapshot.
void step(Snapshot& s, const Plan& plan, std::vector<std::pair<WorkloadId, Timestamp>>& stopping) {
  testing::admit_planned(s, plan);
  for (const Preemption& p : plan.preemptions) {
    for (AdmittedWorkload& a : s.admitted) {
      if (a.id != p.victim) continue;
      a.terminating = true;
      a.preempted_for = p.beneficiary;
      stopping.emplace_back(a.id, s.now + p.grace_period);
    }
  }
  s.reservations.clear();
  for (const Reservation& r : plan.reservations) {
    s.reservations.push_back({r.workload, r.nodes, r.starts_at, r.consolidation});
  }
  s.now = s.now + Duration::seconds(10);
  for (auto it = s.admitted.begin(); it != s.admitted.end();) {
    const bool stops = std::any_of(stopping.begin(), stopping.end(), [&](const auto& entry) {
      return entry.first == it->id && entry.second <= s.now;
    });
    if (!stops) {
      ++it;
      continue;
    }
    s.pending.push_back(requeued_from(*it));
    it = s.admitted.erase(it);
  }
  std::sort(s.pending.begin(), s.pending.end(),
            [](const PendingWorkload& a, const PendingWorkload& b) { return a.id < b.id; });
}

TEST(ConsolidationProperties, TheOwedGangAndTheMovedWorkRunOnceTheVictimsStopped) {
  int kept = 0;
  for (uint64_t seed = 2000; seed <= 2300; ++seed) {
    std::mt19937_64 rng(seed);
    const int32_t pods = 1 + static_cast<int32_t>(rng() % 2);
    const std::optional<MoveWorld> world = move_world(rng, rng() % 2 == 0, rng() % 2 == 0, pods);
    if (!world) continue;
    const Scheduler scheduler(policy_of(*world, ConsolidationPolicy::kWithinNominal));
    Snapshot s = world->snapshot;
    const WorkloadId owed = s.pending[0].id;
    Plan plan = scheduler.plan(s);
    std::vector<WorkloadId> moved;
    std::set<uint32_t> held;
    for (const Preemption& p : plan.preemptions) {
      if (p.reason == PreemptionReason::kConsolidation) moved.push_back(p.victim);
    }
    if (moved.empty()) continue;
    for (const Reservation& r : plan.reservations) {
      if (r.workload == owed) held.insert(r.nodes[0].value());
    }
    std::vector<std::pair<WorkloadId, Timestamp>> stopping;
    for (int cycle = 0; cycle < 3; ++cycle) {  // the grace period: 30 s
      step(s, plan, stopping);
      plan = scheduler.plan(s);
      if (cycle < 2) {
        EXPECT_TRUE(plan.preemptions.empty()) << "seed " << seed << ": a second consolidation";
      }
    }
    std::set<uint32_t> placed;
    for (const Admission& a : plan.admissions) {
      if (a.workload != owed) continue;
      for (const PodPlacement& pod : a.assignment[0].pods) placed.insert(pod.node.value());
    }
    EXPECT_EQ(placed, held) << "seed " << seed << ": the owed gang not admitted on its held nodes";
    for (const WorkloadId m : moved) {
      EXPECT_TRUE(served(plan, m))
          << "seed " << seed << ": moved work " << m.value() << " not admitted again";
    }
    ++kept;
  }
  EXPECT_GT(kept, 30) << "the random worlds rarely moved work";
}

}  // namespace
}  // namespace allot
