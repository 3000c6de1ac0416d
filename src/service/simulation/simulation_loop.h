// SimulationLoop: the admission loop of one simulation on virtual time.
//
// Contract: run_simulation() (simulation_runner.h) builds it from validated
// input; it drives the pure Scheduler and an executor on virtual time (the
// SteppedExecutor port; app/ chooses the sim backend) cycle by cycle and records what happened into
// a SimulationTrace. Each cycle at virtual time t:
//   1. completions and stops due by t are applied (end_run(): a stopped
//      workload is requeued with its original queued_at and restarts + 1;
//      the progress its checkpoints did not keep is counted as lost work);
//   2. node health changes due by t are applied;
//   3. arrivals due by t become pending (queued_at = their arrival time);
//      Spaces due to be resumed become pending at the front of their team's
//      queue (scheduler/space_idle.h), and running Spaces idle past their
//      idleTimeoutSeconds are stopped for a suspension (with their priority
//      class's grace period): once stopped they hold nothing and are not
//      queued; their progress is kept (docs/spaces.md); endpoint replicas due
//      to be withdrawn leave their queue, or are stopped for good (a cancel:
//      never requeued);
//   4. the Snapshot is refreshed (each running workload's last checkpoint as
//      its checkpoint model has it) and Scheduler::plan() called;
//   5. the plan is carried out by the plan-effects core that allotd uses too
//      (scheduler/plan_effects.h): evictions (stop now), preemptions (stop
//      after the plan's grace period), admissions (start running).
// Cycles fall on the grid k * cycle. Idle cycles are skipped (see
// SimulationOptions::skip_idle_cycles). The loop ends when nothing is pending
// or running and nothing is left to arrive, or when what is pending can never
// be admitted (no plan action and no future event).
// Single-threaded; deterministic.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "backends/stepped_executor.h"
#include "base/quantity.h"
#include "base/status.h"
#include "base/time.h"
#include "model/checkpoint_progress.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/pending_queues.h"
#include "scheduler/plan_effects.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"
#include "scheduler/space_idle.h"
#include "service/simulation/simulation_metrics.h"
#include "service/simulation/simulation_options.h"

namespace allot {

struct SimulatedArrival {
  PendingWorkload request;  // request.id == position in the arrivals; queued_at == arrival
  Duration runtime;
  bool checkpointed = false;  // progress survives a stop
  // With `checkpointed`: progress is kept in multiples of it (spec.checkpoint.
  // intervalSeconds); unset: all of it.
  std::optional<Duration> checkpoint_interval;

  [[nodiscard]] CheckpointModel checkpoints() const { return {checkpointed, checkpoint_interval}; }
  // A Space (docs/spaces.md): suspended after idle_timeout without activity;
  // active for idle_after per run (unset: always); resumed resume_after after
  // a suspension (unset: never).
  std::optional<Duration> idle_timeout;
  std::optional<Duration> idle_after;
  std::optional<Duration> resume_after;
  // An endpoint replica: it serves, so a stopped run loses no work.
  bool replica = false;
  // An endpoint replica that stops being wanted then: stopped (its stop is
  // final, not a requeue) or taken out of its queue, for good.
  std::optional<Timestamp> withdraw_at;
  // Whether the workload names its priority class: only then does a start
  // latency by class apply to it (one without takes the default latency,
  // though the scheduler ranks it in the lowest class).
  bool class_named = false;
};

struct NodeHealthChange {
  Timestamp at;
  NodeIndex node;
  bool healthy = false;
};

struct SimulationLoopInput {
  std::shared_ptr<const CompiledPolicy> policy;
  std::vector<SimulatedArrival> arrivals;     // ordered by arrival time
  std::vector<NodeHealthChange> node_events;  // ordered by time
  Duration cycle = Duration::seconds(1);      // > 0
  Resource primary = Resource::kGpu;          // the resource metered in RunSegments
};

class SimulationLoop {
 public:
  // REQUIRES: input.cycle > 0; options.executor is set; every class of
  // options.pod_start_latency_by_class is in the policy. `options` must
  // outlive the loop.
  SimulationLoop(SimulationLoopInput input, const SimulationOptions& options);

  // REQUIRES: `trace` has one workload per arrival (names, team, arrival time).
  // Runs to the end, filling the timeline fields of trace.workloads, the
  // segments, the counters and trace.end. Fails only when max_cycles is hit.
  Status run(SimulationTrace& trace);

 private:
  struct LiveWorkload {
    WorkloadRun run;       // waiting from its arrival on
    Timestamp started_at;  // of the current run
    int64_t amount = 0;    // primary resource held while running
    int32_t pods = 0;      // of the current run
    int32_t pods_ended = 0;
    bool completed = true;               // every pod that ended so far exited 0, unstopped
    SpaceActivity activity;              // a Space's, during its current run
    std::optional<Timestamp> queued_at;  // set once resumed: its place in the queue since
  };
  // Keeps the executor's pod events, with their time, for the cycle to apply.
  class EventBuffer final : public PodEventSink {
   public:
    explicit EventBuffer(const SimulationLoop& loop) : loop_(loop) {}
    void on_pod_event(const PodEvent& event) override;
    std::vector<std::pair<Timestamp, PodEvent>> events;

   private:
    const SimulationLoop& loop_;
  };
  // The runs of the workloads that have arrived, for the plan-effects core.
  class ArrivedRuns final : public RunTable {
   public:
    explicit ArrivedRuns(SimulationLoop& loop) : loop_(loop) {}
    WorkloadRun* find_run(WorkloadId workload) override;

   private:
    SimulationLoop& loop_;
  };

  void apply_executor_events(Timestamp now);
  void apply_node_events(Timestamp now);
  void apply_arrivals(Timestamp now);
  void apply_resumes(Timestamp now);
  void suspend_idle_spaces(Timestamp now);
  [[nodiscard]] Timestamp next_space_event() const;
  void apply_withdrawals(Timestamp now);
  void refresh_snapshot(Timestamp now);
  bool carry_out(const Plan& plan, Timestamp now);
  void stop(const StopEffect& stop);
  void admit(const Admission& admission, Timestamp now);
  void end_pod(Timestamp at, const PodEvent& event);
  void make_pending(WorkloadId id);
  void count_lost_work(WorkloadId id, RunEnd end, Timestamp at);
  [[nodiscard]] Timestamp modelled_checkpoint(const AdmittedWorkload& admitted,
                                              Timestamp now) const;
  AdmittedWorkload* find_admitted(WorkloadId id);
  [[nodiscard]] Timestamp next_event_time() const;
  [[nodiscard]] Timestamp next_min_runtime_expiry(Timestamp now) const;
  [[nodiscard]] std::optional<Timestamp> next_tick(Timestamp now, bool acted) const;
  [[nodiscard]] Timestamp round_up(Timestamp t) const;
  // The backend's start latency for this workload's pods (by its class).
  [[nodiscard]] Duration start_latency_of(WorkloadId id) const;

  SimulationLoopInput input_;
  const SimulationOptions& options_;
  Scheduler scheduler_;
  EventBuffer events_;
  std::unique_ptr<SteppedExecutor> executor_;
  Snapshot snapshot_;                      // pending and admitted kept sorted by id
  std::vector<LiveWorkload> live_;         // by WorkloadId
  std::vector<Duration> start_latencies_;  // by PriorityClassIndex
  std::vector<AdmittedWorkload> newly_admitted_;
  // snapshot_.pending[0, pending_sorted_) is sorted by id; newcomers are
  // appended after it and merged in by refresh_snapshot().
  size_t pending_sorted_ = 0;
  size_t next_arrival_ = 0;
  size_t next_node_event_ = 0;
  std::multimap<Timestamp, WorkloadId> resumes_;  // suspended Spaces, by when they resume
  std::vector<std::pair<Timestamp, WorkloadId>> withdrawals_;  // by time
  size_t next_withdrawal_ = 0;
  SimulationTrace* trace_ = nullptr;
  // The team queues and facts of pending work, kept between cycles
  // (scheduler/pending_queues.h) and updated from the workloads that entered
  // or left the queue since the last plan (touched_).
  PendingQueues kept_queues_;
  std::vector<WorkloadId> touched_;
};

}  // namespace allot
