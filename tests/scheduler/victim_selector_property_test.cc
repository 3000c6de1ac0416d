// Property tests of the victim search over random cohort trees and running
// work: every victim set that VictimSelector returns makes the preemptor fit,
// is minimal (sparing any one victim makes it not fit), takes only work the
// policy allows, and leaves the quota tree and node capacity as it found them.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "flat_gpu_world.h"
#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/capacity_index.h"
#include "scheduler/gang_placer.h"
#include "scheduler/quota_tree.h"
#include "scheduler/scheduler.h"
#include "scheduler/topology.h"
#include "scheduler/victim_selector.h"
#include "snapshot_builders.h"
#include "victim_world.h"

namespace allot {
namespace {

using testing::Cluster;
using testing::fits;
using testing::flat_gpu_policy;
using testing::gpu_gang;
using testing::gpu_job;
using testing::hold_all;
using testing::random_running;
using testing::random_victim_policy;
using testing::random_workload;

struct Outcome {
  int searches = 0;
  int preempting = 0;
  int64_t gang_walks = 0;  // searches answered by the gang node-first walk
  int64_t clearings = 0;   // searches answered by the node-clearing search
};

void check_one_search(const CompiledPolicy& policy, const Topology& topology,
                      const std::vector<AdmittedWorkload>& running, const PendingWorkload& w,
                      uint64_t seed, Outcome* outcome) {
  const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
  const std::vector<bool> none(running.size(), false);
  Cluster c{QuotaTree(policy), CapacityIndex(policy, topology, {})};
  hold_all(c, running, none);
  if (fits(c, w, total, false)) return;  // no preemption is needed
  ++outcome->searches;
  const int64_t avail_before = c.quota.available(policy.team(w.team).quota_node, 0);
  const ResourceVector free_before = c.capacity.flavor_free(FlavorIndex(0));
  std::vector<int64_t> usage_before;
  for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
    usage_before.push_back(c.quota.usage(node, 0));
  }
  const std::vector<bool> unavailable(running.size(), false);
  VictimSelector selector(c.quota, c.capacity, running, unavailable,
                          Timestamp() + Duration::hours(1));
  const std::vector<int32_t> counts{w.pod_sets[0].count};
  const VictimChoice choice = selector.find(w, FlavorIndex(0), total, counts);
  outcome->gang_walks += selector.gang_walks_won();
  outcome->clearings += selector.node_clearing_wins();
  ASSERT_EQ(c.quota.available(policy.team(w.team).quota_node, 0), avail_before) << "seed " << seed;
  // The usage itself (find() puts back the availability cached before it).
  for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
    ASSERT_EQ(c.quota.usage(node, 0), usage_before[node]) << "seed " << seed << " node " << node;
  }
  ASSERT_EQ(c.capacity.flavor_free(FlavorIndex(0)), free_before) << "seed " << seed;
  if (choice.verdict != PreemptionVerdict::kPreempting) {
    ASSERT_TRUE(choice.victims.empty());
    return;
  }
  ++outcome->preempting;
  ASSERT_FALSE(choice.victims.empty());
  std::vector<bool> gone(running.size(), false);
  for (const auto& [index, reason] : choice.victims) {
    ASSERT_FALSE(gone[index]) << "seed " << seed << ": a victim chosen twice";
    gone[index] = true;
    const AdmittedWorkload& v = running[index];
    if (v.team == w.team) {
      EXPECT_LT(v.priority, w.priority) << "seed " << seed << ": own-team victim not lower";
    } else {
      // Only a team above its nominal can lose work to another team.
      QuotaTree before(policy);
      for (const AdmittedWorkload& a : running) before.add_usage(a.team, a.flavor, a.usage());
      EXPECT_TRUE(before.borrowing(v.team, FlavorIndex(0)))
          << "seed " << seed << ": victim of a team within its nominal";
      EXPECT_NE(policy.team(w.team).preemption.reclaim_within_cohort, ReclaimPolicy::kNever);
    }
  }
  {  // Without the victims it fits.
    Cluster after{QuotaTree(policy), CapacityIndex(policy, topology, {})};
    hold_all(after, running, gone);
    EXPECT_TRUE(fits(after, w, total, choice.within_nominal))
        << "seed " << seed << ": the preemptor does not fit without its victims";
  }
  for (const auto& [index, reason] : choice.victims) {  // Sparing any one, it does not.
    gone[index] = false;
    Cluster spared{QuotaTree(policy), CapacityIndex(policy, topology, {})};
    hold_all(spared, running, gone);
    EXPECT_FALSE(fits(spared, w, total, choice.within_nominal))
        << "seed " << seed << ": victim " << running[index].id.value() << " was not needed";
    gone[index] = true;
  }
}

Outcome run_searches(uint64_t seed, bool fair_sharing) {
  std::mt19937_64 rng(seed);
  const Policy p = random_victim_policy(rng, fair_sharing);
  auto policy = std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
  const Scheduler scheduler(policy);
  const Topology topology(*policy);
  uint64_t next_id = 1;
  const std::vector<AdmittedWorkload> running = random_running(rng, *policy, scheduler, &next_id);
  Outcome outcome;
  for (int i = 0; i < 12; ++i) {
    const PendingWorkload w =
        random_workload(rng, *policy, next_id++, Timestamp() + Duration::hours(1));
    check_one_search(*policy, topology, running, w, seed, &outcome);
    if (::testing::Test::HasFatalFailure()) break;
  }
  return outcome;
}

TEST(VictimSelectorProperties, VictimSetIsMinimalAndSufficientClassic) {
  Outcome total;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Outcome o = run_searches(seed, false);
    total.searches += o.searches;
    total.preempting += o.preempting;
  }
  EXPECT_GT(total.preempting, 20) << "the random worlds rarely preempt (" << total.searches
                                  << " searches)";
}

// Two teams of one cohort on 8 nodes x 8 GPUs: the lender (nominal 8k or 8k + 8) asks for a
// gang of k 8-GPU pods, k in 2..3, with nothing of its own running; the borrower fills every
// node with two 4-GPU jobs started at random times. Clearing k nodes takes 2k jobs (8k GPUs),
// which the borrower, 8k or more above its nominal, may lose: the search must always succeed
// (the greedy walk, most recently started first, scatters its victims over the nodes and stops
// once the borrower is back within its nominal; the gang's node-first walk clears whole
// nodes), and its victims are sufficient and minimal (check_one_search).
TEST(VictimSelectorProperties, AGangWithinNominalClearsWholeNodesOfScatteredBorrowers) {
  Outcome total;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const int64_t pods = 2 + static_cast<int64_t>(rng() % 2);
    const int64_t lender_nominal = 8 * pods + 8 * static_cast<int64_t>(rng() % 2);
    const std::shared_ptr<const CompiledPolicy> policy =
        flat_gpu_policy({{"lender", lender_nominal}, {"borrower", 64 - lender_nominal}});
    const Topology topology(*policy);
    std::vector<AdmittedWorkload> running;
    uint64_t id = 1;
    for (int32_t node = 0; node < policy->node_count(); ++node) {
      for (const uint64_t mask : {uint64_t{0x0F}, uint64_t{0xF0}}) {
        const Timestamp at = Timestamp() + Duration::seconds(static_cast<int64_t>(rng() % 3000));
        running.push_back(gpu_job(id++, 1, 4, static_cast<uint32_t>(node), mask, at));
      }
    }
    const PendingWorkload gang = gpu_gang(id, 0, static_cast<int32_t>(pods));
    Outcome outcome;
    check_one_search(*policy, topology, running, gang, seed, &outcome);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << seed;
    EXPECT_EQ(outcome.searches, 1) << "seed " << seed;
    EXPECT_EQ(outcome.preempting, 1)
        << "seed " << seed << ": a gang of " << pods << " pods found no victims";
    total.gang_walks += outcome.gang_walks;
  }
  // Not vacuous: the greedy walk alone fails in most of these worlds.
  EXPECT_GT(total.gang_walks, 20);
}

// One random world of the node-clearing property below: 8 nodes x 8 GPUs; ops holds 1-GPU jobs
// within its nominal on some nodes (no reclaim may take them); the borrower fills the rest with
// jobs of 1, 2, 4 or 8 GPUs started at random times, `excess` GPUs above its nominal; the lender,
// with nothing running, asks for a gang of `pods` 8-GPU pods within its nominal.
struct ClearingWorld {
  std::shared_ptr<const CompiledPolicy> policy;
  std::vector<AdmittedWorkload> running;
  PendingWorkload gang;
  int64_t excess = 0;
};

std::optional<ClearingWorld> clearing_world(std::mt19937_64& rng) {
  ClearingWorld world;
  const int32_t pods = 1 + static_cast<int32_t>(rng() % 3);
  std::vector<AdmittedWorkload> running;
  uint64_t id = 1;
  int64_t ops_gpus = 0;
  int64_t borrower_gpus = 0;
  const auto job = [&](uint32_t team, int64_t gpus, int32_t node, uint64_t mask) {
    const Timestamp at = Timestamp() + Duration::seconds(static_cast<int64_t>(rng() % 3000));
    running.push_back(gpu_job(id++, team, gpus, static_cast<uint32_t>(node), mask, at));
  };
  for (int32_t node = 0; node < 8; ++node) {
    int64_t used = 0;
    if (rng() % 3 == 0) {
      job(1, 1, node, 1);
      used = 1;
      ++ops_gpus;
    }
    while (used < 8 && rng() % 8 != 0) {
      int64_t gpus = int64_t{1} << (rng() % 4);
      while (used + gpus > 8) gpus /= 2;
      job(2, gpus, node, ((uint64_t{1} << gpus) - 1) << used);
      used += gpus;
      borrower_gpus += gpus;
    }
  }
  world.excess = 1 + static_cast<int64_t>(rng() % 6);
  const int64_t borrower_nominal = borrower_gpus - world.excess;
  const int64_t lender_nominal = 64 - ops_gpus - borrower_nominal;
  if (borrower_nominal < 0 || lender_nominal < 8 * pods) return std::nullopt;
  world.policy = flat_gpu_policy(
      {{"lender", lender_nominal}, {"ops", ops_gpus}, {"borrower", borrower_nominal}});
  world.running = std::move(running);
  world.gang = gpu_gang(id, 0, pods);
  return world;
}

// Whether `pods` nodes without ops' work can be cleared of the borrower's jobs
// within Kueue's bound: all jobs J on them, sum(J) - max(J) < excess (the
// largest taken last, each take while the borrower is above its nominal).
bool clearable_by_brute_force(const ClearingWorld& world) {
  const int32_t pods = world.gang.pod_sets[0].count;
  for (uint32_t nodes = 0; nodes < (1U << 8); ++nodes) {
    if (std::popcount(nodes) != pods) continue;
    int64_t sum = 0;
    int64_t largest = 0;
    bool ops = false;
    for (const AdmittedWorkload& w : world.running) {
      if ((nodes >> w.assignment[0].pods[0].node.value() & 1U) == 0) continue;
      ops = ops || w.team == TeamIndex(1);
      sum += w.pod_sets[0].per_pod.gpu();
      largest = std::max(largest, w.pod_sets[0].per_pod.gpu());
    }
    if (!ops && sum - largest < world.excess) return true;
  }
  return false;
}

// The classic search finds victims for a gang of whole-node pods exactly when
// some nodes can be cleared within Kueue's bound (the node-clearing search,
// node_clearing.cc): never more than the bound allows, and not less.
TEST(VictimSelectorProperties, AGangClearsExactlyTheNodesKueuesBoundAllows) {
  int worlds = 0;  // searched
  int clearable = 0;
  int64_t clearings = 0;
  for (uint64_t seed = 1; seed <= 800; ++seed) {
    std::mt19937_64 rng(seed);
    const std::optional<ClearingWorld> world = clearing_world(rng);
    if (!world) continue;
    const Topology topology(*world->policy);
    Outcome outcome;
    check_one_search(*world->policy, topology, world->running, world->gang, seed, &outcome);
    ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "seed " << seed;
    if (outcome.searches == 0) continue;  // it fits as things are
    ++worlds;
    const bool expected = clearable_by_brute_force(*world);
    clearable += expected ? 1 : 0;
    clearings += outcome.clearings;
    EXPECT_EQ(outcome.preempting == 1, expected) << "seed " << seed;
  }
  // Not vacuous: both answers occur, and the node-clearing search gives some.
  EXPECT_GT(worlds, 100);
  EXPECT_GT(clearable, 20);
  EXPECT_GT(worlds - clearable, 10);
  EXPECT_GT(clearings, 5);
  std::printf("worlds searched %d, clearable %d, answered by node clearing %lld\n", worlds,
              clearable, static_cast<long long>(clearings));
}

TEST(VictimSelectorProperties, VictimSetIsMinimalAndSufficientFairSharing) {
  Outcome total;
  for (uint64_t seed = 500; seed <= 560; ++seed) {
    const Outcome o = run_searches(seed, true);
    total.searches += o.searches;
    total.preempting += o.preempting;
  }
  EXPECT_GT(total.preempting, 20) << "the random worlds rarely preempt (" << total.searches
                                  << " searches)";
}

}  // namespace
}  // namespace allot
