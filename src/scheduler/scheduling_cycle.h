// SchedulingCycle: the state and steps of one Scheduler::plan() call.
//
// Steps: (1) evict work on failed nodes; (2) account what admitted work
// holds, in quota and on nodes; (2b) keep, admit or withdraw the previous
// cycle's handovers (cycle_handovers.cc); (3) re-apply the previous cycle's
// reservations; (4) take team heads in admission order, admitting each that
// fits (flavors in the team's order, full size, then partial down to
// minCount), else trying preemption, then consolidation
// (cycle_consolidation.cc), else a reservation for a blocked gang, else a
// drain for whole-node work that no reclaim can serve (cycle_drains.cc);
// (5) explain every workload left pending and estimate its start.
//
// Contract: single use; everything it reads is owned by the caller. The team
// queues and facts of pending work are `kept` (PendingQueues kept between
// cycles by the caller, up to date with the snapshot) or built here.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "scheduler/admission_memo.h"
#include "scheduler/admission_order.h"
#include "scheduler/capacity_index.h"
#include "scheduler/endpoint_replicas.h"
#include "scheduler/inflight_preemptions.h"
#include "scheduler/node_tenancy.h"
#include "scheduler/pending_index.h"
#include "scheduler/pending_queues.h"
#include "scheduler/plan.h"
#include "scheduler/quota_tree.h"
#include "scheduler/release_timeline.h"
#include "scheduler/released_quota.h"
#include "scheduler/reservation_planner.h"
#include "scheduler/reservation_steps.h"
#include "scheduler/reserved_gangs.h"
#include "scheduler/reserved_quota.h"
#include "scheduler/scheduler.h"
#include "scheduler/team_queues.h"
#include "scheduler/topology.h"
#include "scheduler/victim_selector.h"

namespace allot {

class SchedulingCycle {
 public:
  SchedulingCycle(const CompiledPolicy& policy, const Topology& topology,
                  const SchedulerOptions& options, const Snapshot& snapshot,
                  const PendingQueues* kept = nullptr);
  // The cycle keeps a reference to its options: a temporary would dangle.
  SchedulingCycle(const CompiledPolicy& policy, const Topology& topology,
                  SchedulerOptions&& options, const Snapshot& snapshot,
                  const PendingQueues* kept = nullptr) = delete;

  Plan run();

  // How many admission attempts this cycle's memo answered (for tests that
  // check the memo is used, not only that it answers right).
  [[nodiscard]] int64_t admission_memo_answers() const { return admission_memo_answers_; }
  // How many reservation plans read node steps kept from an earlier one.
  [[nodiscard]] int64_t reservation_steps_reused() const { return reservation_steps_.reused(); }
  [[nodiscard]] int64_t released_quota_reused() const;

 private:
  using Failure = AdmissionFailure;

  void evict_and_account();
  void note_terminating(uint32_t admitted_index);
  void hold_for_beneficiaries();
  // Takes back (held=false) or puts back what is held for a waiting beneficiary.
  void set_held(uint32_t pending_index, bool held);
  // Takes back (held=false) or puts back what is held for the beneficiaries
  // of w's team queued after w: the team's nominal goes to its queue in order,
  // so a beneficiary's hold never makes an earlier workload of its team borrow.
  void set_held_behind(const PendingWorkload& w, bool held);
  // The order's refresh of `team`, its head judged without the holds behind it.
  void refresh_order(TeamIndex team);
  // Handovers (cycle_handovers.cc): the snapshot's, kept, admitted or broken
  // before anything else is planned; a new one offered when victims are chosen.
  void keep_handovers();
  bool admit_promised(const PendingWorkload& w, const Handover& promise);
  void offer_handover(const PendingWorkload& w, FlavorIndex flavor, const VictimChoice& choice);
  void settle_handovers();  // promises of workloads admitted elsewhere are withdrawn
  // Turnovers (cycle_turnovers.cc): at the end of the cycle, promises of
  // capacity that running work of a workload's own team frees by ending.
  struct TurnoverJob;
  void offer_turnovers();
  // `team_kept`: the kept promises of the team's pending workloads.
  void promise_turnovers(TeamIndex team, std::vector<TurnoverJob>& jobs,
                         const std::vector<const Handover*>& team_kept,
                         const std::unordered_set<uint64_t>& admitted_now,
                         const std::unordered_set<uint64_t>& taken);
  std::optional<Handover> turnover_promise(const PendingWorkload& w, const TurnoverJob& job,
                                           const std::unordered_set<uint64_t>& admitted_now);
  // Whether `team` stays within its nominal when `ends` ends and `starts` starts.
  bool swap_within_nominal(TeamIndex team, FlavorIndex flavor, const ResourceVector& ends,
                           const ResourceVector& starts);
  // Whether a team other than `team` is owed in `flavor` after this cycle
  // (its first workload not admitted would be within its nominal there).
  bool other_team_owed(FlavorIndex flavor, TeamIndex team,
                       const std::unordered_set<uint64_t>& admitted_now);
  void apply_held_reservations();
  void process(uint32_t pending_index);
  bool try_preempt_or_explain(const PendingWorkload& w, uint32_t pending_index, Failure* failure);
  bool try_admit(const PendingWorkload& w, Failure* failure);
  // try_admit(), or the failure remembered for the same request (admission_memo.h).
  bool try_admit_remembered(const PendingWorkload& w, uint32_t pending_index, Failure* failure);
  // Something an admission attempt reads has changed (admission_memo.h).
  void state_changed() { ++state_epoch_; }
  // Free capacity or the release timeline changed on nodes of `flavor`: kept
  // node steps of that flavor no longer hold.
  void capacity_changed(FlavorIndex flavor) { reservation_steps_.forget(flavor); }
  // Marks `node` reserved for `gang` from `from`, with the gang's priority at hand.
  void reserve_node(NodeIndex node, const PendingWorkload& gang, Timestamp from);
  bool try_flavor(const PendingWorkload& w, FlavorIndex flavor, Failure* failure);
  // The pod counts to admit in `flavor` (full, else partial down to minCount)
  // and their placement, or nothing.
  std::optional<std::vector<int32_t>> fit_counts(const PendingWorkload& w, FlavorIndex flavor,
                                                 bool full_size_fits_quota,
                                                 std::vector<PodSetAssignment>* placement);
  bool fits_with(const PendingWorkload& w, FlavorIndex flavor, const std::vector<int32_t>& counts,
                 std::vector<PodSetAssignment>* placement, bool quota_known_to_fit = false);
  // Whether a single-pod-set request of `pods` pods is known not to fit any nodes now.
  [[nodiscard]] bool known_not_to_place(const PendingWorkload& w, FlavorIndex flavor,
                                        int32_t pods) const;
  void remember_unplaceable(const PendingWorkload& w, FlavorIndex flavor,
                            const std::vector<int32_t>& counts);
  void admit(const PendingWorkload& w, FlavorIndex flavor, const std::vector<int32_t>& counts,
             std::vector<PodSetAssignment> placement);
  // Each pod set's full count.
  static std::vector<int32_t> full_counts(const PendingWorkload& w);
  // Preemption (cycle_preemption.cc). Sets *admitted when victims stop at
  // once and w was admitted in their place.
  PreemptionVerdict try_preempt(const PendingWorkload& w, bool* admitted);
  bool admit_after_immediate_stop(const PendingWorkload& w, FlavorIndex flavor,
                                  const VictimChoice& choice);
  [[nodiscard]] std::optional<PreemptionVerdict> known_preemption_failure(
      const PendingWorkload& w) const;
  void remember_preemption_failure(const PendingWorkload& w, PreemptionVerdict verdict);
  bool try_reserve(const PendingWorkload& w, FlavorIndex flavor, PendingExplanation* explanation);
  // Consolidation (cycle_consolidation.cc): work within nominal moved for w.
  struct MoveSearch;
  bool try_consolidate(const PendingWorkload& w, bool* admitted);
  std::optional<VictimChoice> find_consolidation(const PendingWorkload& w, FlavorIndex flavor,
                                                 const ResourceVector& total,
                                                 std::vector<NodeIndex>* targets);
  void keep_consolidation_hold(const PendingWorkload& w, PreemptionVerdict verdict);
  [[nodiscard]] bool known_consolidation_failure(const PendingWorkload& w) const;
  void remember_consolidation_failure(const PendingWorkload& w);
  NodeIndex best_target(MoveSearch& s, const ResourceVector& per_pod);
  bool clear_for_pod(MoveSearch& s, NodeIndex node, const ResourceVector& per_pod);
  void spare_unneeded(MoveSearch& s, NodeIndex node, const ResourceVector& per_pod, size_t from);
  bool place_moved(MoveSearch& s, const ResourceVector& amount);
  bool reclaim_room(MoveSearch& s, NodeIndex node, const ResourceVector& amount);
  [[nodiscard]] bool consolidation_victim(const PendingWorkload& w, uint32_t index,
                                          bool moved) const;
  [[nodiscard]] bool loses_less(uint32_t a, uint32_t b) const;
  void note_single_node_work();
  // Drains (cycle_drains.cc).
  void apply_held_drains();
  [[nodiscard]] bool whole_node_work(const PendingWorkload& w, FlavorIndex flavor) const;
  [[nodiscard]] NodeIndex nearest_to_clear(const PendingWorkload& w, FlavorIndex flavor);
  // Whether every piece of work on `node` ends by itself, is anchored (waited
  // out) or may be reclaimed by w: the node can be cleared for w.
  [[nodiscard]] bool clearable_for(const PendingWorkload& w, NodeIndex node);
  // Whether w's team's preemption policy lets w reclaim work of `team` at
  // `priority` (and `guaranteed`: an endpoint's guaranteed replica).
  [[nodiscard]] bool may_reclaim(const PendingWorkload& w, TeamIndex team, int32_t priority,
                                 bool guaranteed) const;
  void note_open_borrowers();
  bool try_drain(const PendingWorkload& w, FlavorIndex flavor, PreemptionVerdict verdict,
                 PendingExplanation* explanation);
  // Reservations (cycle_reservations.cc).
  const std::vector<QuotaRelease>& quota_releases(FlavorIndex flavor);
  // Whether admitting `total` for w leaves every reserved gang its quota at its start.
  bool reservations_allow(const PendingWorkload& w, FlavorIndex flavor,
                          const ResourceVector& total);
  void note_admission_for_reservations(const PendingWorkload& w, FlavorIndex flavor,
                                       const ResourceVector& total);
  void drop_reservation(WorkloadId gang);
  void add_reserved_quota(ReservedQuota reserved);
  bool keep_held_reservation(const PendingWorkload& w, FlavorIndex flavor,
                             PendingExplanation* explanation);
  void record_reservation(const PendingWorkload& w, Reservation reservation,
                          PendingExplanation* explanation);
  std::optional<Reservation> plan_beside_other_gangs(const PendingWorkload& w, bool gang,
                                                     std::span<const QuotaRelease> releases,
                                                     const ResourceVector& total,
                                                     GangReservationRequest& request,
                                                     std::optional<ReservedQuota>* reserved);
  // The flavor's quota at `at`, releases by then taken out.
  QuotaTree released_at(FlavorIndex flavor, std::span<const QuotaRelease> releases, Timestamp at);
  [[nodiscard]] int32_t priority_of_pending(WorkloadId id) const;
  void explain(const PendingWorkload& w, uint32_t pending_index, const Failure& failure,
               PreemptionVerdict verdict);
  // The workloads behind a blocked StrictFIFO head (Plan::blocked_tails).
  void explain_blocked_tail(TeamIndex team, uint32_t head);
  void finish_explanations();
  // REQUIRES: w is an element of the snapshot's pending vector.
  [[nodiscard]] std::span<const FlavorIndex> usable_flavors(const PendingWorkload& w) const;
  [[nodiscard]] Timestamp finish_by(const PendingWorkload& w) const;
  // When the victims stopping for pending workload `index` stop, or infinite_future().
  [[nodiscard]] Timestamp victims_stop_by(uint32_t index) const {
    return victims_stop_by_.empty() ? Timestamp::infinite_future() : victims_stop_by_[index];
  }
  ReleaseTimeline& timeline();

  const CompiledPolicy& policy_;
  const SchedulerOptions& options_;
  const Snapshot& snapshot_;
  QuotaTree quota_;
  BurstUsage burst_usage_;  // endpoints' burst replicas (endpoint_replicas.h)
  CapacityIndex capacity_;
  NodeTenancy tenancy_;  // anchored GPUs per node, for placement (node_tenancy.h)
  std::optional<PendingQueues> own_queues_;  // built for this cycle when none is kept
  const PendingQueues& pending_queues_;
  TeamQueues queues_;
  const std::vector<PendingFacts>& facts_;
  PendingIndex pending_index_;             // WorkloadId -> pending index
  std::vector<uint32_t> explained_index_;  // pending index of each plan_.explanations entry
  std::unique_ptr<AdmissionOrder> order_;
  std::optional<ReleaseTimeline> timeline_;
  std::vector<bool> unavailable_;  // admitted: stopping or chosen as victim
  // By pending index: when its victims stop (infinite_future(): none stop for
  // it). Allocated by the first victim that names a waiting beneficiary: until
  // then (a cycle without stopping victims) nothing is read per workload.
  std::vector<Timestamp> victims_stop_by_;
  InflightPreemptions inflight_;  // pending: what its stopping victims hold
  // Per team: pending indices of its beneficiaries with something held for them.
  std::vector<std::vector<uint32_t>> held_by_team_;
  std::vector<bool> team_preempted_;
  std::vector<bool> team_blocked_;          // StrictFIFO head failed
  std::vector<int32_t> reservations_left_;  // per flavor
  std::optional<VictimSelector> selector_;  // one per cycle: groups admitted work once
  struct FailedReservation {
    ResourceVector per_pod;
    int32_t pods = 0;
    int32_t priority = 0;
  };
  std::vector<std::vector<FailedReservation>> failed_reservations_;  // per flavor
  // The quota each reserved gang needs at its start, by flavor.
  ReservedGangs reserved_quota_;
  // What admitted work gives back when, per flavor (built when first needed).
  std::vector<std::optional<std::vector<QuotaRelease>>> quota_releases_;
  // Per flavor: bumped whenever its releases change (ReleasedQuota's version).
  std::vector<uint64_t> releases_version_;
  // Per flavor: its quota at the last reserved gang's start (released_quota.h).
  std::vector<ReleasedQuota> released_quota_;
  // The last fits_with() found nodes, but a reserved gang needs the quota.
  bool held_for_reservation_ = false;
  struct UnplaceableShape {
    ResourceVector per_pod;
    int32_t pods = 0;
    Timestamp finish_by;
  };
  std::vector<std::vector<UnplaceableShape>> unplaceable_;  // per flavor, this cycle
  std::unordered_set<uint64_t> holds_reservation_;          // workloads with held reservations
  std::unordered_map<uint64_t, NodeIndex> held_drains_;     // workload -> its drained node (held)
  std::vector<ResourceVector> drained_;  // per team and flavor: what holds drains this cycle
  // Per node: running borrowers' work with no declared end (not anchored, not
  // stopping), which a drain cannot wait out; built at the first drain.
  struct OpenBorrower {
    uint32_t admitted = UINT32_MAX;  // snapshot index; UINT32_MAX: admitted this cycle
    TeamIndex team;
    int32_t priority = 0;
    bool guaranteed = false;
  };
  std::vector<std::vector<OpenBorrower>> open_borrowers_;
  size_t open_borrowers_admissions_ = 0;  // plan_.admissions noted in open_borrowers_
  // By node: the snapshot's admitted work that runs on it alone (built when first needed).
  std::vector<std::vector<uint32_t>> single_node_work_;
  std::vector<int64_t> single_node_gpus_;            // by node: that work's GPUs
  std::vector<int64_t> single_node_gpus_of_flavor_;  // by flavor: the same, summed
  // Workload -> the nodes held for it while it waits for its consolidation's victims.
  std::unordered_map<uint64_t, std::vector<NodeIndex>> consolidation_holds_;
  struct ConsolidationFailure {
    uint64_t epoch = 0;  // state_epoch_ when it failed
    int32_t priority = 0;
    ResourceVector per_pod;
    int32_t pods = 0;
    WorkloadId preempted_by;
  };
  std::vector<std::vector<ConsolidationFailure>> consolidation_failures_;  // per team
  std::unordered_set<uint64_t> admitted_by_promise_;  // keep_handovers() admitted them
  std::vector<Handover> kept_turnovers_;  // the snapshot's turnovers still waiting, to judge again
  std::unordered_set<uint64_t> refused_turnovers_;  // withdrawn by keep_handovers(): none again now
  // Per flavor: the team owed there after the cycle (-1: none, -2: several, -3: not yet known).
  std::vector<int32_t> owed_team_;
  // Per node: the priority of the gang it is reserved for (read only while reserved).
  std::vector<int32_t> reserved_priority_;
  ReservationSteps reservation_steps_;  // node steps per shape, while capacity holds
  // Per flavor: the priorities of the gangs holding a reservation in plan_.
  std::vector<std::multiset<int32_t>> reservation_priorities_;
  // WorkloadId -> index in plan_.explanations of its explanation while it is kReserved.
  std::unordered_map<uint64_t, size_t> reserved_explanation_;
  struct PreemptionFailure {
    int32_t priority = 0;
    ResourceVector per_pod;
    int32_t pods = 0;
    FlavorIndex pinned;
    WorkloadId preempted_by;
    size_t admissions_seen = 0;
    PreemptionVerdict verdict = PreemptionVerdict::kInsufficient;
    // An endpoint's guaranteed replica searched without borrowing: its
    // failure says nothing of work that may borrow.
    bool guaranteed = false;
  };
  std::vector<std::vector<PreemptionFailure>> preemption_failures_;  // per team, this cycle
  std::vector<ResourceVector> flavor_capacity_;
  std::vector<int64_t> flavor_node_gpus_;  // per flavor: the most GPUs of one node
  AdmissionMemo admission_memo_;
  uint64_t state_epoch_ = 0;  // counts changes of what an admission attempt reads
  int64_t admission_memo_answers_ = 0;
  Plan plan_;
};

}  // namespace allot
