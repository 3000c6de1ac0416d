// AdmissionLoop: allotd's loop on real time (DESIGN.md section 3). Each pass
// applies what the executor reported (pod starts and exits), the health
// checks when due and maxRuntime, and runs a scheduling cycle when something
// changed or the cycle period passed; it suspends idle Spaces (space_lifecycle.h), reads
// checkpoint folders (checkpoint_watcher.h) and the CPU use of cpu endpoints' replicas
// (endpoint_autoscale.h) and the executor's measured GPU utilisation into the ledger
// (gpu_utilization_meter.h); the plan is committed before it is carried out (pods launched
// or stopped).
//
// Contract:
// - run_once() is one pass; it returns when the next pass is due at the
//   latest, with everything it decided stored and handed to the executor
//   (action_runner.h). Tests call it directly (no thread, a manual clock).
// - A cycle plans on a snapshot taken under the writer lock, then lets go of
//   the lock while the scheduler plans: cancels, deletes and node changes go
//   on meanwhile. It takes the lock again to apply the plan only if nothing
//   the plan relies on changed (stale_plan_reason(), admission_cycle.h; the
//   policy, compared by its scheduler); a stale plan is dropped whole and the
//   cycle plans again. The pod exits reported while a plan was made are
//   applied before it is judged: a victim that exited meanwhile is not
//   preempted, the plan is made again with its capacity free. After
//   kOptimisticPlans stale plans in one pass, it plans holding the writer
//   lock (and applies exits reported meanwhile only in the next pass), so a
//   stream of changes cannot starve it. Every plan is made from team queues
//   kept between cycles and brought up to date for its snapshot first
//   (kept_pending_queues.h): the same plan as one from queues built anew.
//   `after_planning` (for tests) is called between a plan made without the
//   writer lock and its application, with no lock held.
// - A change (a submit, an exit, a node) makes the pass run a cycle, but no
//   sooner than the policy's minCycleInterval after the last one: a change
//   that comes sooner is owed a cycle at that time, and run_once() returns
//   it as due, so the changes of that window are planned together.
// - start() runs passes on a thread of its own until stop(). Between passes
//   the loop rests as long as the pass worked (its wait for the commits of
//   its changes and the launches and stops it carried out not counted), then
//   while only new submits come up to kRestPerWork times as long in all
//   (LoopSignal), so that a stream of submits is served in batches; pod
//   exits, cancels, nodes and policy changes end that longer rest.
// - A submit queued behind an identical workload that an idle cycle left
//   blocked does not wake the loop (settled_queues.h): it is planned by the
//   next cycle that runs for another reason, the cycle period at the latest,
//   so a stream of submits into a blocked queue costs no cycle each. Every
//   other submit wakes it as before.
// Thread-safe: passes run on one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/time.h"
#include "governance/contract_reviews.h"
#include "service/control/action_runner.h"
#include "service/control/budget_monitor.h"
#include "service/control/checkpoint_watcher.h"
#include "service/control/cluster_state.h"
#include "service/control/endpoint_autoscale.h"
#include "service/control/gpu_utilization_meter.h"
#include "service/control/health_monitor.h"
#include "service/control/kept_pending_queues.h"
#include "service/control/loop_signal.h"
#include "service/control/signal_monitor.h"
#include "service/metrics/activity_metrics.h"

namespace allot {

class AdmissionLoop {
 public:
  AdmissionLoop(ClusterState& cluster, LoopSignal& signal, ActionRunner& actions,
                HealthMonitor& health, const Clock& clock, Duration idle_cycle,
                std::function<void()> after_planning = {})
      : cluster_(cluster),
        signal_(signal),
        actions_(actions),
        health_(health),
        clock_(clock),
        idle_cycle_(idle_cycle),
        after_planning_(std::move(after_planning)) {}
  ~AdmissionLoop() { stop(); }
  AdmissionLoop(const AdmissionLoop&) = delete;
  AdmissionLoop& operator=(const AdmissionLoop&) = delete;

  Timestamp run_once();
  // Each pass then also reads, when due, the checkpoint times that running
  // workloads report in their folders (checkpoint_watcher.h). Before start().
  void watch_checkpoints(CheckpointWatcher* watcher) { checkpoints_ = watcher; }
  // Each applied cycle then records its duration (on the loop's clock), its
  // admissions with their wait and its preemptions (activity_metrics.h).
  // Before start().
  void record_into(ActivityMetrics* activity) { activity_ = activity; }
  // Each pass then also evaluates the Budgets when due (budget_monitor.h).
  // Before start().
  void watch_budgets(BudgetMonitor* budgets) { budgets_ = budgets; }
  // ... and samples /metrics for the Signals and evaluates them (signal_monitor.h).
  void watch_signals(SignalMonitor* signals) { signals_ = signals; }

  void start();
  void stop();

 private:
  // How long the loop rests after a pass while only submits come, in all, in
  // multiples of the time the pass took.
  static constexpr int kRestPerWork = 4;
  // Plans made without the writer lock in one pass before one is made holding it.
  static constexpr int kOptimisticPlans = 2;
  // The least time between two readings of the Spaces' activity: a Space may
  // be suspended up to this much after its idle deadline.
  static constexpr Duration kSampleEvery = Duration::seconds(1);

  // What a plan is made from.
  struct PlanInput {
    std::shared_ptr<const Scheduler> scheduler;
    Snapshot snapshot;
    size_t joined = 0;  // submits that joined settled queues by then (settled_queues.h)
  };

  void run();
  // A pass up to its changes, queued for the store, in `made`: run_once()
  // without waiting for their commits nor carrying them out.
  Timestamp work_pass(CommitTicket& made);
  [[nodiscard]] Duration cycle_period() const;
  // The policy's minCycleInterval (zero without a policy).
  [[nodiscard]] Duration min_cycle_interval() const;
  // Runs the cycle owed since a change (or the period), unless less than
  // minCycleInterval has passed since the last one; returns when the owed
  // cycle may run (infinite_future(): none owed).
  Timestamp cycle_when_allowed(bool cycle_due, Timestamp now, CommitTicket& made);
  // The activity of the running Spaces (space_lifecycle.h), read with no lock
  // held; none when read less than kSampleEvery ago.
  std::map<WorkloadId, ActivitySample> sample_spaces();
  // cpu endpoints' replicas, when a reading is due (endpoint_autoscale.h).
  std::optional<std::vector<CpuReading>> read_endpoint_cpu();
  // Applies the executor's reports. REQUIRES: the state held exclusively.
  void apply_reports(Timestamp now, WriteBatch& batch, Actions& actions)
      ALLOT_REQUIRES(cluster_.mutex());
  // A scheduling cycle; returns the changes it made, not yet waited for.
  CommitTicket run_cycle(Timestamp now);
  // The plan of `input`, from the team queues kept between cycles brought up
  // to date for its snapshot (kept_pending_queues.h); the pass's thread only.
  Plan plan_with_kept_queues(const PlanInput& input);
  // Reinstalls the policy when the PolicyExceptions active at `now` are not
  // those it applies (one expired, or one applied ahead of its time came
  // due), so that the cycle plans under the policy with exactly those, and
  // records the teams' quota lines that this changes (quota_history.h).
  void refresh_exceptions(ClusterWriter& writer, Timestamp now);
  // Opens the reviews of Active contracts whose interval has passed
  // (review_notices.h). REQUIRES: the state held exclusively.
  void open_interval_reviews(Timestamp now, WriteBatch& batch) ALLOT_REQUIRES(cluster_.mutex());
  // Opens the reviews of Active contracts one of whose monitoringSignals
  // stopped having data. REQUIRES: the state held exclusively.
  void open_coverage_reviews(const std::vector<std::string>& signals_without_data, Timestamp now,
                             WriteBatch& batch) ALLOT_REQUIRES(cluster_.mutex());
  void open_reviews_due(const std::vector<ReviewDue>& due, Timestamp now, WriteBatch& batch)
      ALLOT_REQUIRES(cluster_.mutex());
  // The snapshot to plan from, after evicting the work the policy can no
  // longer place. False when there is nothing to plan.
  bool take_snapshot(ClusterWriter& writer, Timestamp now, PlanInput& input);
  // Carries the plan into the state (not yet out) unless it is stale; false
  // when it is. With `take_new_reports`, the executor's reports that came
  // while the plan was made are applied first (a victim that exited meanwhile
  // makes the plan stale).
  bool apply_if_current(ClusterWriter& writer, const PlanInput& input, const Plan& plan,
                        Timestamp now, bool take_new_reports);
  // The settled queues after `plan` (null: nothing planned); wakes the next
  // pass when a submit that came while it was made needs a cycle.
  // REQUIRES: the state held exclusively.
  void settle_queues(const Plan* plan, const PlanInput& input) ALLOT_REQUIRES(cluster_.mutex());
  // What an applied plan did, for /metrics. REQUIRES: the state held exclusively.
  void record_cycle(const Plan& plan, Timestamp now) ALLOT_REQUIRES(cluster_.mutex());

  ClusterState& cluster_;
  LoopSignal& signal_;
  ActionRunner& actions_;
  HealthMonitor& health_;
  const Clock& clock_;
  Duration idle_cycle_;
  std::function<void()> after_planning_;
  CheckpointWatcher* checkpoints_ = nullptr;
  ActivityMetrics* activity_ = nullptr;
  BudgetMonitor* budgets_ = nullptr;
  SignalMonitor* signals_ = nullptr;
  GpuUtilizationMeter gpu_meter_;  // the measured GPU utilisation into the ledger
  Timestamp last_cycle_;           // used by the pass's thread only
  bool cycle_owed_ = false;        // a change waits for minCycleInterval; pass's thread only
  Timestamp last_sampled_;         // the Spaces' activity; the pass's thread only
  CpuAutoscaler autoscaler_;       // the pass's thread only
  KeptPendingQueues kept_queues_;  // for the last snapshot planned; the pass's thread only
  std::thread thread_;
};

}  // namespace allot
