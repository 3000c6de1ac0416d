// Property test for ReservedGangs (issue 12 item 7): the reserved gangs kept
// by flavor, with their windows, answer every question as the plain
// computation does (every gang in one vector in the order added, each
// question put to all of them: what SchedulingCycle did before the index).
// Random worlds: three flavors, four teams under one cohort, gangs added,
// forgotten, linked and charged with admitted work in random order; before
// each gang is added, where the reservation planner looks next for it
// (the pairwise conflict check, then start_beside()).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/quota_tree.h"
#include "scheduler/reserved_gangs.h"
#include "scheduler/reserved_quota.h"

namespace allot {
namespace {

constexpr int kGangFlavors = 3;
constexpr int kGangTeams = 4;
constexpr Duration kGangCycle = Duration::seconds(30);

std::shared_ptr<const CompiledPolicy> gang_flavors_policy() {
  Policy p;
  p.clusters.push_back({});
  p.clusters[0].meta.name = "main";
  p.clusters[0].scheduling.cycle = kGangCycle;
  for (int f = 0; f < kGangFlavors; ++f) {
    testing::add_gpu_pool(p, "f" + std::to_string(f), "pool" + std::to_string(f));
  }
  Cohort root;
  root.meta.name = "root";
  p.cohorts = {root};
  for (int t = 0; t < kGangTeams; ++t) {
    Team team;
    team.meta.name = "t" + std::to_string(t);
    team.namespace_name = team.meta.name;
    team.cohort = "root";
    for (int f = 0; f < kGangFlavors; ++f) {
      // Team 3 lends nothing: the others' gangs borrow from 0 to 2 only.
      team.quota.push_back(testing::gpu_quota("f" + std::to_string(f), 16, std::nullopt,
                                              t == 3 ? std::optional<int64_t>(0) : std::nullopt));
    }
    p.teams.push_back(team);
  }
  return std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
}

ResourceVector gang_gpus(int64_t n) { return ResourceVector(n, 0, 0); }

// The plain computation: SchedulingCycle's loops before ReservedGangs.
struct PlainGangs {
  std::vector<ReservedQuota> gangs;

  void add(ReservedQuota reserved) {
    for (ReservedQuota& other : gangs) reserved.link(other);
    gangs.push_back(std::move(reserved));
  }
  void erase(WorkloadId gang) {
    std::erase_if(gangs, [&](const ReservedQuota& r) { return r.gang() == gang; });
  }
  [[nodiscard]] bool holds(WorkloadId gang) const {
    return std::any_of(gangs.begin(), gangs.end(),
                       [&](const ReservedQuota& r) { return r.gang() == gang && r.holds(); });
  }
  bool allows(WorkloadId w, TeamIndex team, FlavorIndex flavor, const ResourceVector& amount,
              Timestamp finish_by, bool borrows) {
    return std::all_of(gangs.begin(), gangs.end(), [&](ReservedQuota& r) {
      return r.allows(w, team, flavor, amount, finish_by, borrows);
    });
  }
  void admitted(WorkloadId w, TeamIndex team, FlavorIndex flavor, const ResourceVector& amount,
                Timestamp finish_by) {
    for (ReservedQuota& r : gangs) r.admitted(w, team, flavor, amount, finish_by);
  }
  Timestamp latest_conflict_end(ReservedQuota& reserved, Timestamp planned) {
    Timestamp later = planned;
    for (ReservedQuota& other : gangs) {
      if (reserved.conflicts_with(other)) later = std::max(later, other.ends_at());
    }
    return later;
  }
};

struct GangCounts {
  int conflicts = 0;     // a conflict moved a start
  int beside_moved = 0;  // start_beside() moved a start
  int refused = 0;       // allows() said no
  int not_holding = 0;   // a gang added that does not hold (or stops holding once linked)
  int erased_held = 0;   // an erase that took a holding gang
};

TEST(ReservedGangsProperties, IndexAnswersAsThePlainComputation) {
  const auto policy = gang_flavors_policy();
  const Timestamp now = Timestamp::from_millis(1'000'000'000);
  GangCounts counts;
  int64_t halves_skipped = 0;
  for (uint64_t seed = 2200; seed < 2600; ++seed) {
    std::mt19937_64 rng(seed);
    QuotaTree quota(*policy);
    for (int t = 0; t < kGangTeams; ++t) {
      for (int f = 0; f < kGangFlavors; ++f) {
        quota.add_usage(TeamIndex(static_cast<uint32_t>(t)), FlavorIndex(static_cast<uint16_t>(f)),
                        gang_gpus(static_cast<int64_t>(rng() % 20)));
      }
    }
    PlainGangs plain;
    ReservedGangs index(seed % 2 == 0 ? kGangFlavors : 0);  // a flavor never seen is added lazily
    for (int step = 0; step < 80; ++step) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << " step " << step);
      const auto team = TeamIndex(static_cast<uint32_t>(rng() % kGangTeams));
      const auto flavor = FlavorIndex(static_cast<uint16_t>(rng() % kGangFlavors));
      const WorkloadId id(1 + rng() % 24);
      const Timestamp at = now + Duration::minutes(static_cast<int64_t>(rng() % 180));
      const ResourceVector amount = gang_gpus(static_cast<int64_t>(1 + rng() % 24));
      const Duration runtime = rng() % 3 == 0
                                   ? Duration::max()
                                   : Duration::minutes(static_cast<int64_t>(5 + rng() % 90));
      switch (rng() % 5) {
        case 0:
        case 1: {  // a gang planned: the conflict check, start_beside, then kept
          QuotaTree at_start = quota.flavor_slice(flavor);
          at_start.add_usage(team, flavor, gang_gpus(static_cast<int64_t>(rng() % 8)));
          ReservedQuota mine(at_start, id, team, flavor, amount, at, runtime, kGangCycle);
          ReservedQuota theirs(at_start, id, team, flavor, amount, at, runtime, kGangCycle);
          Timestamp plain_later = plain.latest_conflict_end(theirs, at);
          if (plain_later != at) ++counts.conflicts;
          if (plain_later == at && theirs.holds()) {
            plain_later = theirs.start_beside(plain.gangs);
            if (plain_later != at) ++counts.beside_moved;
          }
          ASSERT_EQ(index.later_start(mine, at), plain_later);
          if (!theirs.holds()) ++counts.not_holding;
          plain.erase(id);  // one reservation per gang, as drop_reservation() leaves it
          index.erase(id);
          plain.add(std::move(theirs));
          index.add(std::move(mine));
          break;
        }
        case 2:
          if (plain.holds(id)) ++counts.erased_held;
          plain.erase(id);
          index.erase(id);
          break;
        case 3: {
          const bool borrows = rng() % 2 == 0;
          const bool allowed = plain.allows(id, team, flavor, amount, at, borrows);
          ASSERT_EQ(index.allows(id, team, flavor, amount, at, borrows), allowed);
          if (!allowed) ++counts.refused;
          break;
        }
        default:
          plain.admitted(id, team, flavor, amount, at);
          index.admitted(id, team, flavor, amount, at);
          break;
      }
      ASSERT_EQ(index.size(), plain.gangs.size());
      if (step == 79) halves_skipped += index.halves_skipped();
      for (uint64_t g = 1; g <= 24; ++g) {
        ASSERT_EQ(index.holds(WorkloadId(g)), plain.holds(WorkloadId(g))) << "gang " << g;
      }
    }
  }
  std::printf(
      "conflicts %d, moved beside %d, refused %d, not holding %d, erased holding %d, halves "
      "skipped %lld\n",
      counts.conflicts, counts.beside_moved, counts.refused, counts.not_holding, counts.erased_held,
      static_cast<long long>(halves_skipped));
  // Not vacuous: every kind of answer comes up often.
  EXPECT_GT(counts.conflicts, 1000);
  EXPECT_GT(counts.beside_moved, 40);
  EXPECT_GT(counts.refused, 500);
  EXPECT_GT(counts.not_holding, 2000);
  EXPECT_GT(counts.erased_held, 300);
  EXPECT_GT(halves_skipped, 1000);  // pairs judged by one half after start_beside()
}

}  // namespace
}  // namespace allot
