// Property test for the classic order of the teams (admission_order.h): over
// random queues and usages, the team the order gives next is, at every step of
// a cycle's walk (heads advanced, queues closed, usage growing as work is
// admitted), the first by a reference built from the rule as written: three
// tiers (the head would not borrow; it would, but a BestEffortFIFO team has a
// workload among the next 32 behind the head that would not, ranked by that
// workload; it would), then higher priority, earlier queue time, lower id.
#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/admission_order.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/pending_queues.h"
#include "scheduler/quota_tree.h"
#include "scheduler/team_queues.h"

namespace allot {
namespace {

constexpr int kTeams = 5;
constexpr size_t kLookahead = 32;

// One flavor, 5 teams in one cohort with random nominal quotas; teams 1 and 3 StrictFIFO.
std::shared_ptr<const CompiledPolicy> order_policy(std::mt19937_64& rng) {
  Policy p;
  p.clusters.push_back({});
  p.clusters[0].meta.name = "main";
  testing::add_gpu_pool(p, "a", "pool-a");
  Cohort root;
  root.meta.name = "root";
  p.cohorts = {root};
  PriorityClass batch;
  batch.meta.name = "batch";
  batch.value = 100;
  p.priority_classes.push_back(batch);
  for (int t = 0; t < kTeams; ++t) {
    Team team;
    team.meta.name = "t" + std::to_string(t);
    team.namespace_name = team.meta.name;
    team.cohort = "root";
    team.quota = {testing::gpu_quota("a", 4 * static_cast<int64_t>(1 + rng() % 6))};
    if (t % 2 == 1) team.queueing = QueueingStrategy::kStrictFifo;
    p.teams.push_back(team);
  }
  return std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
}

// Up to 45 workloads a team; a third of the queues open with a run of 28-35
// large (borrowing) workloads, so that the 32-deep lookahead's edge is crossed.
std::vector<PendingWorkload> random_pending(std::mt19937_64& rng) {
  std::vector<PendingWorkload> pending;
  uint64_t id = 1;
  for (int t = 0; t < kTeams; ++t) {
    const int count = static_cast<int>(rng() % 46);
    const int large_run = rng() % 3 == 0 ? static_cast<int>(28 + rng() % 8) : 0;
    for (int k = 0; k < count; ++k) {
      PendingWorkload w;
      w.id = WorkloadId(id++);
      w.team = TeamIndex(static_cast<uint32_t>(t));
      w.priority_class = PriorityClassIndex(0);
      w.priority = rng() % 4 == 0 ? 200 : 100;
      w.queued_at = Timestamp::from_millis(static_cast<int64_t>(rng() % 50) * 1000);
      PodSetRequest set;
      static constexpr int64_t kSizes[] = {1, 2, 4, 8};
      set.per_pod = ResourceVector(k < large_run ? 8 : kSizes[rng() % 4], 1000, 0);
      set.count = k < large_run ? 4 : static_cast<int32_t>(1 + rng() % 2);
      set.min_count = set.count;
      w.pod_sets = {set};
      pending.push_back(w);
    }
  }
  return pending;
}

using Key = std::tuple<int, int32_t, int64_t, uint64_t>;

// The rule as written, from the team's current head.
Key reference_key(const CompiledPolicy& policy, const QuotaTree& quota, const TeamQueues& queues,
                  const std::vector<PendingWorkload>& pending,
                  const std::vector<PendingFacts>& facts, TeamIndex team) {
  const auto borrows = [&](uint32_t i) {
    return quota.would_borrow(team, facts[i].first_flavor, facts[i].total);
  };
  const auto key = [&](int tier, uint32_t i) {
    return Key{tier, -pending[i].priority, pending[i].queued_at.ms(), pending[i].id.value()};
  };
  const uint32_t head = queues.head(team);
  if (!borrows(head)) return key(0, head);
  if (policy.team(team).queueing == QueueingStrategy::kBestEffortFifo) {
    const std::span<const uint32_t> behind = queues.after_head(team);
    for (size_t k = 0; k < behind.size() && k < kLookahead; ++k) {
      if (facts[behind[k]].usable && !borrows(behind[k])) return key(1, behind[k]);
    }
  }
  return key(2, head);
}

// Returns how many teams were given by the middle tier. With `usage_falls`,
// some steps also give back part of a random team's usage (victims that stop
// at once, handovers) and refresh that team, as the cycle does: the order's
// memory of which work behind a head borrows must not outlive it.
int walk_one_cycle(uint64_t seed, bool usage_falls = false, int* falls = nullptr) {
  std::mt19937_64 rng(seed);
  const auto policy = order_policy(rng);
  const std::vector<PendingWorkload> pending = random_pending(rng);
  const PendingQueues kept(*policy, pending);
  TeamQueues queues(kept, policy->team_count());
  QuotaTree quota(*policy);
  const FlavorIndex flavor(0);
  for (int t = 0; t < kTeams; ++t) {
    quota.add_usage(TeamIndex(static_cast<uint32_t>(t)), flavor,
                    ResourceVector(static_cast<int64_t>(rng() % 28), 0, 0));
  }
  const std::unique_ptr<AdmissionOrder> order = make_classic_order(quota, queues, kept.facts());
  int steps = 0;
  int middle = 0;
  for (TeamIndex team = order->next(); team.valid(); team = order->next(), ++steps) {
    TeamIndex expected = TeamIndex::invalid();
    Key best;
    for (int t = 0; t < kTeams; ++t) {
      const TeamIndex candidate(static_cast<uint32_t>(t));
      if (!queues.has_head(candidate)) continue;
      const Key k = reference_key(*policy, quota, queues, pending, kept.facts(), candidate);
      if (!expected.valid() || k < best) {
        expected = candidate;
        best = k;
      }
    }
    EXPECT_EQ(team, expected) << "seed " << seed << " step " << steps;
    if (team != expected) return middle;
    if (std::get<0>(best) == 1) ++middle;
    // As a cycle does: the head admitted (its usage counted) or not, the
    // queue advanced, or closed behind a StrictFIFO head that waits.
    const uint32_t head = queues.head(team);
    switch (rng() % 4) {
      case 0: quota.add_usage(team, flavor, kept.facts()[head].total); [[fallthrough]];
      case 1:
      case 2: queues.advance(team); break;
      default: queues.close(team); break;
    }
    order->refresh(team);
    if (usage_falls && rng() % 3 == 0) {
      const TeamIndex other(static_cast<uint32_t>(rng() % kTeams));
      const int64_t used = quota.usage(policy->team(other).quota_node,
                                       CompiledPolicy::fr_of(flavor, Resource::kGpu));
      if (used > 0) {
        quota.remove_usage(other, flavor,
                           ResourceVector(1 + static_cast<int64_t>(rng() % used), 0, 0));
        order->refresh(other);
        ++*falls;
      }
    }
  }
  EXPECT_EQ(order->next(), TeamIndex::invalid());
  return middle;
}

TEST(ClassicOrderProperties, TeamsGoByHeadTierWithWithinNominalWorkBehindABorrowingHeadBetween) {
  int middle = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    middle += walk_one_cycle(seed);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(middle, 100) << "the random worlds rarely ranked a team by work behind its head";
}

// The same walk with usage that also falls: a team whose work behind its
// head was found borrowing is ranked anew once its usage is lower.
TEST(ClassicOrderProperties, WorkBehindTheHeadIsJudgedAgainOnceUsageFalls) {
  int middle = 0;
  int falls = 0;
  for (uint64_t seed = 1000; seed <= 1300; ++seed) {
    middle += walk_one_cycle(seed, /*usage_falls=*/true, &falls);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(middle, 100) << "the random worlds rarely ranked a team by work behind its head";
  EXPECT_GT(falls, 1000) << "usage rarely fell";
}

}  // namespace
}  // namespace allot
