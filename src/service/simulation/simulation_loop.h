// SimulationLoop: the admission loop of one simulation on virtual time.
//
// Contract: run_simulation() (simulation_runner.h) builds it from validated
// input; it drives the pure Scheduler and the sim backend's VirtualExecutor
// cycle by cycle and records what happened into a SimulationTrace. Each cycle
// at virtual time t:
//   1. completions and stops due by t are applied (a stopped workload is
//      requeued with its original queued_at and restart count + 1);
//   2. node health changes due by t are applied;
//   3. arrivals due by t become pending (queued_at = their arrival time);
//   4. the Snapshot is refreshed and Scheduler::plan() called;
//   5. the plan is carried out: evictions (stop now), preemptions (stop after
//      the plan's grace period), admissions (start running).
// Cycles fall on the grid k * cycle. Idle cycles are skipped (see
// SimulationOptions::skip_idle_cycles). The loop ends when nothing is pending
// or running and nothing is left to arrive, or when what is pending can never
// be admitted (no plan action and no future event).
// Single-threaded; deterministic.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "backends/sim/virtual_executor.h"
#include "base/quantity.h"
#include "base/status.h"
#include "base/time.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"
#include "service/simulation/simulation_metrics.h"
#include "service/simulation/simulation_options.h"

namespace allot {

struct SimulatedArrival {
  PendingWorkload request;  // request.id == position in the arrivals; queued_at == arrival
  Duration runtime;
  bool checkpointed = false;  // progress survives a stop
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
  // REQUIRES: `trace` has one workload per arrival (names, team, arrival time);
  // input.cycle > 0. `options` must outlive the loop.
  SimulationLoop(SimulationLoopInput input, const SimulationOptions& options);

  // Runs to the end, filling the timeline fields of trace.workloads, the
  // segments, the counters and trace.end. Fails only when max_cycles is hit.
  Status run(SimulationTrace& trace);

 private:
  enum class Phase : uint8_t { kNotArrived, kPending, kRunning, kDone };
  struct LiveWorkload {
    Phase phase = Phase::kNotArrived;
    Duration remaining;
    WorkloadId preempted_by;
    bool evicted = false;  // the current run was stopped because its node failed
    int64_t amount = 0;    // primary resource held while running
  };

  void apply_executor_events(Timestamp now);
  void apply_node_events(Timestamp now);
  void apply_arrivals(Timestamp now);
  void refresh_snapshot(Timestamp now);
  bool carry_out(const Plan& plan, Timestamp now);
  bool evict(WorkloadId id, Timestamp now);
  bool preempt(const Preemption& preemption, Timestamp now);
  bool admit(const Admission& admission, Timestamp now);
  void make_pending(WorkloadId id);
  AdmittedWorkload* find_admitted(WorkloadId id);
  [[nodiscard]] Timestamp next_event_time() const;
  [[nodiscard]] Timestamp next_min_runtime_expiry(Timestamp now) const;
  [[nodiscard]] std::optional<Timestamp> next_tick(Timestamp now, bool acted) const;
  [[nodiscard]] Timestamp round_up(Timestamp t) const;

  SimulationLoopInput input_;
  const SimulationOptions& options_;
  Scheduler scheduler_;
  sim::VirtualExecutor executor_;
  Snapshot snapshot_;               // pending and admitted kept sorted by id
  std::vector<LiveWorkload> live_;  // by WorkloadId
  std::vector<AdmittedWorkload> newly_admitted_;
  // snapshot_.pending[0, pending_sorted_) is sorted by id; newcomers are
  // appended after it and merged in by refresh_snapshot().
  size_t pending_sorted_ = 0;
  size_t next_arrival_ = 0;
  size_t next_node_event_ = 0;
  SimulationTrace* trace_ = nullptr;
};

}  // namespace allot
