// Checks of one plan of the scheduler's property tests
// (scheduler_property_test.cc) against the state it was made from and the
// state after it: drains, handovers and the packing of work within nominal.
// Each returns how many cases it checked and reports failures with the seed
// and step.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "model/node_inventory.h"
#include "scheduler/quota_tree.h"
#include "scheduler/scheduler.h"

namespace allot::testing {

// Drains (scheduler/cycle_drains.cc): a node drained for a workload in the
// last plan and still drained for it in this one takes no new work in this
// plan but that workload's. Returns how many such drains were checked.
inline int check_drains(const Snapshot& before, const Plan& plan, uint64_t seed, int step) {
  int checked = 0;
  for (const HeldReservation& r : before.reservations) {
    if (r.starts_at != Timestamp::infinite_future()) continue;
    const NodeIndex drained = r.nodes.front();
    const bool kept = std::any_of(plan.reservations.begin(), plan.reservations.end(),
                                  [&](const Reservation& again) {
                                    return again.workload == r.workload &&
                                           again.starts_at == r.starts_at && again.nodes == r.nodes;
                                  });
    if (!kept) continue;
    ++checked;
    for (const Admission& a : plan.admissions) {
      if (a.workload == r.workload) continue;
      for (const PodSetAssignment& set : a.assignment) {
        for (const PodPlacement& pod : set.pods) {
          EXPECT_NE(pod.node, drained)
              << "seed " << seed << " step " << step << ": workload " << a.workload.value()
              << " admitted onto the node drained for " << r.workload.value();
        }
      }
    }
  }
  return checked;
}

// Whether a team's GPUs of running work (not terminating) in a flavor, before
// a plan, are within its nominal quota there.
class WithinNominal {
 public:
  WithinNominal(const CompiledPolicy& policy, const Snapshot& before)
      : policy_(policy),
        n_flavors_(static_cast<size_t>(policy.flavor_count())),
        gpus_(policy.team_count() * n_flavors_, 0) {
    for (const AdmittedWorkload& w : before.admitted) {
      if (!w.terminating) gpus_[w.team.value() * n_flavors_ + w.flavor.value()] += w.usage().gpu();
    }
  }
  bool operator()(TeamIndex t, FlavorIndex f) const {
    const int32_t fr = CompiledPolicy::fr_of(f, Resource::kGpu);
    return gpus_[t.value() * n_flavors_ + f.value()] <=
           policy_.limits(policy_.team(t).quota_node, fr).nominal;
  }

 private:
  const CompiledPolicy& policy_;
  size_t n_flavors_;
  std::vector<int64_t> gpus_;
};

// Drains (scheduler/cycle_drains.cc): a node drained in this plan can be
// cleared for its workload. Every piece of work on it, running and not
// stopping or admitted by the plan, is anchored (its team within its nominal
// in the flavor, which the drain waits out), declares its end (maxRuntime), or
// may be reclaimed by the workload: another team's work of its cohort tree
// under reclaimWithinCohort Any, or LowerPriority when of lower priority; its
// own team's lower-priority work under withinTeam LowerPriority. Returns how
// many drains were checked.
inline int check_drains_clearable(const CompiledPolicy& policy, const Snapshot& before,
                                  const Plan& plan, uint64_t seed, int step) {
  const WithinNominal within(policy, before);
  const auto root = [&](TeamIndex t) {
    int32_t q = policy.team(t).quota_node;
    while (policy.parent(q) != kNoParent) q = policy.parent(q);
    return q;
  };
  const auto pending = [&](WorkloadId id) {
    return &*std::find_if(before.pending.begin(), before.pending.end(),
                          [&](const PendingWorkload& p) { return p.id == id; });
  };
  const auto on = [](const std::vector<PodSetAssignment>& assignment, NodeIndex node) {
    return std::any_of(assignment.begin(), assignment.end(), [&](const PodSetAssignment& set) {
      return std::any_of(set.pods.begin(), set.pods.end(),
                         [&](const PodPlacement& pod) { return pod.node == node; });
    });
  };
  int checked = 0;
  for (const Reservation& r : plan.reservations) {
    if (r.starts_at != Timestamp::infinite_future()) continue;
    const PendingWorkload& w = *pending(r.workload);
    const TeamPreemption& rules = policy.team(w.team).preemption;
    const auto reclaimable = [&](TeamIndex team, int32_t priority, bool guaranteed) {
      const bool lower = priority < w.priority;
      if (team == w.team) return rules.within_team == WithinTeamPolicy::kLowerPriority && lower;
      return !guaranteed && root(team) == root(w.team) &&
             (rules.reclaim_within_cohort == ReclaimPolicy::kAny ||
              (rules.reclaim_within_cohort == ReclaimPolicy::kLowerPriority && lower));
    };
    const NodeIndex node = r.nodes.front();
    ++checked;
    for (const AdmittedWorkload& a : before.admitted) {
      const bool stopping =
          a.terminating || std::any_of(plan.preemptions.begin(), plan.preemptions.end(),
                                       [&](const Preemption& p) { return p.victim == a.id; });
      if (stopping || within(a.team, a.flavor) || a.max_runtime != Duration::max() ||
          !on(a.assignment, node)) {
        continue;
      }
      EXPECT_TRUE(reclaimable(a.team, a.priority, a.guaranteed()))
          << "seed " << seed << " step " << step << ": node " << node.value() << " drained for "
          << w.id.value() << " holds " << a.id.value() << ", which it may never clear";
    }
    for (const Admission& a : plan.admissions) {
      const PendingWorkload& p = *pending(a.workload);
      if (!a.borrowing || p.max_runtime != Duration::max() || !on(a.assignment, node)) continue;
      EXPECT_TRUE(reclaimable(p.team, p.priority, p.guaranteed()))
          << "seed " << seed << " step " << step << ": node " << node.value() << " drained for "
          << w.id.value() << " holds " << p.id.value() << ", admitted by the plan, never cleared";
    }
  }
  return checked;
}

// Drains (scheduler/cycle_drains.cc): a drain held from the previous cycle
// that the plan puts on another node, while its held node stays schedulable,
// taken by no other reservation and can be cleared for it, moves to a node with strictly fewer GPUs
// of work within nominal ("anchored": running work, not terminating, of a team within its nominal
// in the flavor, and the plan's admissions that do not borrow). Returns how many moves were
// checked.
inline int check_drain_moves(const CompiledPolicy& policy, const Snapshot& before, const Plan& plan,
                             uint64_t seed, int step) {
  const WithinNominal within(policy, before);
  std::vector<int64_t> anchored(policy.node_count(), 0);
  const auto add = [&](const std::vector<PodSetAssignment>& assignment,
                       const std::vector<int64_t>& per_pod_gpus) {
    for (size_t i = 0; i < assignment.size(); ++i) {
      for (const PodPlacement& pod : assignment[i].pods) {
        if (pod.node.value() < anchored.size()) anchored[pod.node.value()] += per_pod_gpus[i];
      }
    }
  };
  const auto per_pod = [](const std::vector<PodSetRequest>& sets) {
    std::vector<int64_t> out;
    for (const PodSetRequest& set : sets) out.push_back(set.per_pod.gpu());
    return out;
  };
  for (const AdmittedWorkload& a : before.admitted) {
    if (!a.terminating && within(a.team, a.flavor)) add(a.assignment, per_pod(a.pod_sets));
  }
  for (const Admission& a : plan.admissions) {
    if (a.borrowing) continue;
    const auto p = std::find_if(before.pending.begin(), before.pending.end(),
                                [&](const PendingWorkload& w) { return w.id == a.workload; });
    if (p != before.pending.end()) add(a.assignment, per_pod(p->pod_sets));
  }
  const auto schedulable = [&](NodeIndex node) {
    return before.nodes.empty() || before.nodes[node.value()].schedulable();
  };
  const auto root = [&](TeamIndex t) {
    int32_t q = policy.team(t).quota_node;
    while (policy.parent(q) != kNoParent) q = policy.parent(q);
    return q;
  };
  // The held node is still the workload's to wait on: no other reservation
  // takes it, and it can still be cleared for the workload (check_drains_clearable).
  const auto still_held = [&](const PendingWorkload& w, NodeIndex node) {
    const auto other = [&](const auto& r) {
      return r.workload != w.id && std::find(r.nodes.begin(), r.nodes.end(), node) != r.nodes.end();
    };
    if (std::any_of(plan.reservations.begin(), plan.reservations.end(), other) ||
        std::any_of(before.reservations.begin(), before.reservations.end(), other)) {
      return false;
    }
    const TeamPreemption& rules = policy.team(w.team).preemption;
    for (const AdmittedWorkload& a : before.admitted) {
      const bool on_node =
          std::any_of(a.assignment.begin(), a.assignment.end(), [&](const auto& set) {
            return std::any_of(set.pods.begin(), set.pods.end(),
                               [&](const PodPlacement& pod) { return pod.node == node; });
          });
      if (!on_node || a.terminating || within(a.team, a.flavor) ||
          a.max_runtime != Duration::max()) {
        continue;
      }
      const bool lower = a.priority < w.priority;
      const bool reclaimable =
          a.team == w.team
              ? rules.within_team == WithinTeamPolicy::kLowerPriority && lower
              : !a.guaranteed() && root(a.team) == root(w.team) &&
                    (rules.reclaim_within_cohort == ReclaimPolicy::kAny ||
                     (rules.reclaim_within_cohort == ReclaimPolicy::kLowerPriority && lower));
      if (!reclaimable) return false;
    }
    return true;
  };
  int moves = 0;
  for (const HeldReservation& held : before.reservations) {
    if (held.starts_at != Timestamp::infinite_future() || held.nodes.size() != 1) continue;
    const auto w = std::find_if(before.pending.begin(), before.pending.end(),
                                [&](const PendingWorkload& p) { return p.id == held.workload; });
    if (w == before.pending.end() || !schedulable(held.nodes[0]) ||
        !still_held(*w, held.nodes[0])) {
      continue;
    }
    for (const Reservation& r : plan.reservations) {
      if (r.workload != held.workload || r.starts_at != Timestamp::infinite_future() ||
          r.nodes.size() != 1 || r.nodes[0] == held.nodes[0]) {
        continue;
      }
      ++moves;
      EXPECT_LT(anchored[r.nodes[0].value()], anchored[held.nodes[0].value()])
          << "seed " << seed << " step " << step << ": the drain of " << r.workload.value()
          << " moved from node " << held.nodes[0].value() << " to node " << r.nodes[0].value()
          << ", which is no nearer to clear";
    }
  }
  return moves;
}

// Handovers (scheduler/cycle_handovers.cc): a promise holds nothing while
// its victims run, never outlives them (each one in force after the plan waits
// for a victim still stopping for its workload), and a promised workload that
// is admitted is admitted at exactly its promise unless the plan withdrew it.
// Returns how many were admitted by their promise.
inline int check_handovers(const Snapshot& before, const Plan& plan, const Snapshot& after,
                           uint64_t seed, int step) {
  for (const Handover& h : plan.handovers) {
    EXPECT_TRUE(std::any_of(after.pending.begin(), after.pending.end(),
                            [&](const PendingWorkload& p) { return p.id == h.workload; }))
        << "seed " << seed << " step " << step << ": promised workload " << h.workload.value()
        << " is not pending";
    if (h.kind == HandoverKind::kTurnover) continue;  // check_turnovers()
    // A victim of its workload among those still running when the plan was made:
    // stopping for it already, or preempted for it by this plan.
    const auto stops_for_it = [&](const AdmittedWorkload& a) {
      if (std::find(h.after.begin(), h.after.end(), a.id) == h.after.end()) return false;
      if (a.terminating) return a.preempted_for == h.workload;
      return std::any_of(
          plan.preemptions.begin(), plan.preemptions.end(),
          [&](const Preemption& p) { return p.victim == a.id && p.beneficiary == h.workload; });
    };
    EXPECT_TRUE(std::any_of(before.admitted.begin(), before.admitted.end(), stops_for_it))
        << "seed " << seed << " step " << step << ": the promise to " << h.workload.value()
        << " outlives its victims";
  }
  int admitted_by_promise = 0;
  for (const Admission& a : plan.admissions) {
    for (const Handover& h : before.handovers) {
      const bool withdrawn =
          std::find(plan.withdrawn_handovers.begin(), plan.withdrawn_handovers.end(), h.workload) !=
          plan.withdrawn_handovers.end();
      if (h.workload != a.workload || withdrawn) continue;
      EXPECT_EQ(a.assignment, h.assignment)
          << "seed " << seed << " step " << step << ": workload " << a.workload.value()
          << " admitted elsewhere than promised, its promise not withdrawn";
      EXPECT_EQ(a.flavor, h.flavor);
      ++admitted_by_promise;
    }
  }
  for (const WorkloadId w : plan.withdrawn_handovers) {
    EXPECT_TRUE(std::any_of(before.handovers.begin(), before.handovers.end(),
                            [&](const Handover& h) { return h.workload == w; }))
        << "seed " << seed << " step " << step << ": withdrew a promise never made";
  }
  return admitted_by_promise;
}

// Turnovers (scheduler/cycle_turnovers.cc): each promise in force after the
// plan names one running workload of its own team that the plan leaves
// running (not stopping, not a victim), promised to no other workload; the
// promise lies on that workload's node within its GPUs, and the team, with
// that workload ended and the promised one admitted, would not borrow; no
// work stops in its flavor (stopping before the plan, or its victim).
// Returns how many turnover promises it checked.
inline int check_turnovers(const CompiledPolicy& policy, const Snapshot& before, const Plan& plan,
                           uint64_t seed, int step) {
  // The usage after the plan: what ran, less victims that stop at once, plus admissions.
  QuotaTree quota(policy);
  for (const AdmittedWorkload& a : before.admitted) {
    const bool stops_at_once = std::any_of(
        plan.preemptions.begin(), plan.preemptions.end(),
        [&](const Preemption& p) { return p.victim == a.id && p.grace_period.ms() == 0; });
    if (!stops_at_once) quota.add_usage(a.team, a.flavor, a.usage());
  }
  for (const Admission& a : plan.admissions) {
    const auto w = std::find_if(before.pending.begin(), before.pending.end(),
                                [&](const PendingWorkload& p) { return p.id == a.workload; });
    if (w == before.pending.end()) continue;
    for (size_t s = 0; s < a.assignment.size() && s < w->pod_sets.size(); ++s) {
      quota.add_usage(w->team, a.flavor, w->pod_sets[s].per_pod * a.assignment[s].count);
    }
  }
  std::set<uint64_t> promised_after;
  int checked = 0;
  for (const Handover& h : plan.handovers) {
    if (h.kind != HandoverKind::kTurnover) continue;
    ++checked;
    const std::string where = "seed " + std::to_string(seed) + " step " + std::to_string(step) +
                              ": the turnover promise to " + std::to_string(h.workload.value());
    const auto w = std::find_if(before.pending.begin(), before.pending.end(),
                                [&](const PendingWorkload& p) { return p.id == h.workload; });
    const auto j = std::find_if(
        before.admitted.begin(), before.admitted.end(),
        [&](const AdmittedWorkload& a) { return h.after.size() == 1 && a.id == h.after[0]; });
    if (w == before.pending.end() || j == before.admitted.end()) {
      ADD_FAILURE() << where << " names no pending workload or no one running workload";
      continue;
    }
    EXPECT_EQ(w->team, j->team) << where << " names another team's work";
    EXPECT_FALSE(j->terminating) << where << " names stopping work";
    EXPECT_FALSE(std::any_of(plan.preemptions.begin(), plan.preemptions.end(),
                             [&](const Preemption& p) { return p.victim == j->id; }))
        << where << " names a victim of this plan";
    EXPECT_TRUE(promised_after.insert(j->id.value()).second) << where << " shares its workload";
    uint64_t gpus = 0;
    std::set<int32_t> nodes;
    for (const auto& set : j->assignment) {
      for (const PodPlacement& pod : set.pods) {
        gpus |= pod.gpu_mask;
        nodes.insert(pod.node.value());
      }
    }
    if (h.assignment.size() != 1 || h.assignment[0].pods.size() != 1) {
      ADD_FAILURE() << where << " is not one pod";
      continue;
    }
    const PodPlacement& pod = h.assignment[0].pods[0];
    EXPECT_TRUE(nodes.size() == 1 && nodes.contains(pod.node.value())) << where << ": another node";
    EXPECT_EQ(pod.gpu_mask & ~gpus, 0U) << where << ": GPUs its workload does not hold";
    EXPECT_EQ(h.flavor, j->flavor) << where;
    EXPECT_FALSE(std::any_of(before.admitted.begin(), before.admitted.end(),
                             [&](const AdmittedWorkload& a) {
                               const bool victim = std::any_of(
                                   plan.preemptions.begin(), plan.preemptions.end(),
                                   [&](const Preemption& p) { return p.victim == a.id; });
                               return a.flavor == h.flavor && (a.terminating || victim);
                             }))
        << where << " stands while work stops in its flavor";
    quota.remove_usage(j->team, j->flavor, j->usage());
    EXPECT_FALSE(quota.would_borrow(w->team, h.flavor, w->pod_sets[0].per_pod))
        << where << ": its team would borrow";
    quota.add_usage(j->team, j->flavor, j->usage());
  }
  return checked;
}

// Placement (node_tenancy.h): while some team uses more GPUs than its nominal,
// the plan's first admission, when it stays within its team's nominal and is one
// pod, goes to the node with the least room left for work of teams within their
// nominal, then the fewest free GPUs, then the lowest node. Checked only when
// nothing else of the cycle moved or reserved capacity. Returns 1 when checked.
inline int check_packing(const CompiledPolicy& policy, const Snapshot& before, const Plan& plan,
                         uint64_t seed, int step) {
  if (plan.admissions.empty() || !plan.preemptions.empty() || !plan.evictions.empty() ||
      !before.handovers.empty() || !before.reservations.empty() || !plan.reservations.empty() ||
      plan.admissions[0].borrowing) {
    return 0;
  }
  const Admission& a = plan.admissions[0];
  if (a.assignment.size() != 1 || a.assignment[0].count != 1) return 0;
  const auto n_teams = static_cast<size_t>(policy.team_count());
  std::vector<int64_t> gpus(n_teams * policy.flavor_count(), 0);
  std::vector<ResourceVector> free(policy.node_count());
  for (int32_t n = 0; n < policy.node_count(); ++n) free[n] = policy.nodes()[n].node.capacity;
  for (const AdmittedWorkload& w : before.admitted) {
    if (!w.terminating)
      gpus[w.team.value() * policy.flavor_count() + w.flavor.value()] += w.usage().gpu();
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods)
        free[pod.node.value()] -= w.pod_sets[s].per_pod;
    }
  }
  const auto within = [&](TeamIndex t, FlavorIndex f) {
    const int32_t fr = CompiledPolicy::fr_of(f, Resource::kGpu);
    return gpus[t.value() * policy.flavor_count() + f.value()] <=
           policy.limits(policy.team(t).quota_node, fr).nominal;
  };
  bool borrowing = false;
  for (uint32_t t = 0; t < n_teams; ++t) {
    for (int32_t f = 0; f < policy.flavor_count(); ++f) {
      borrowing = borrowing || !within(TeamIndex(t), FlavorIndex(static_cast<uint16_t>(f)));
    }
  }
  if (!borrowing) return 0;
  std::vector<int64_t> anchored(policy.node_count(), 0);
  for (const AdmittedWorkload& w : before.admitted) {
    if (w.terminating || !within(w.team, w.flavor)) continue;
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods)
        anchored[pod.node.value()] += w.pod_sets[s].per_pod.gpu();
    }
  }
  const PendingWorkload& w =
      *std::find_if(before.pending.begin(), before.pending.end(),
                    [&](const PendingWorkload& p) { return p.id == a.workload; });
  std::tuple<int64_t, int64_t, int32_t> best{INT64_MAX, 0, 0};
  for (int32_t n = 0; n < policy.node_count(); ++n) {
    const bool up = before.nodes.empty() || before.nodes[n].schedulable();
    if (!up || policy.nodes()[n].flavor != a.flavor || !w.pod_sets[0].per_pod.fits_in(free[n])) {
      continue;
    }
    const int64_t room = policy.nodes()[n].node.capacity.gpu() - anchored[n];
    best = std::min(best, std::make_tuple(room, free[n].gpu(), n));
  }
  EXPECT_EQ(a.assignment[0].pods[0].node, NodeIndex(std::get<2>(best)))
      << "seed " << seed << " step " << step << ": work within nominal not packed";
  return 1;
}

}  // namespace allot::testing
