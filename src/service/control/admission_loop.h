// AdmissionLoop: allotd's loop on real time (DESIGN.md section 3). Each pass
// applies what the executor reported (pod starts and exits), the health
// checks when due and maxRuntime, and runs a scheduling cycle when something
// changed or the cycle period passed; the plan is committed before it is
// carried out (pods launched or stopped).
//
// Contract:
// - run_once() is one pass; it returns when the next pass is due at the
//   latest. Tests call it directly (no thread, a manual clock).
// - start() runs passes on a thread of its own until stop(). Between passes
//   the loop rests as long as the pass took, then while only new submits
//   come up to kRestPerWork times as long in all (LoopSignal), so that a
//   stream of submits is served in batches; pod exits, cancels, nodes and
//   policy changes end that longer rest.
// Thread-safe: passes run on one thread at a time.
#pragma once

#include <thread>

#include "base/clock.h"
#include "base/time.h"
#include "service/control/action_runner.h"
#include "service/control/cluster_state.h"
#include "service/control/health_monitor.h"
#include "service/control/loop_signal.h"

namespace allot {

class AdmissionLoop {
 public:
  AdmissionLoop(ClusterState& cluster, LoopSignal& signal, ActionRunner& actions,
                HealthMonitor& health, const Clock& clock, Duration idle_cycle)
      : cluster_(cluster),
        signal_(signal),
        actions_(actions),
        health_(health),
        clock_(clock),
        idle_cycle_(idle_cycle) {}
  ~AdmissionLoop() { stop(); }
  AdmissionLoop(const AdmissionLoop&) = delete;
  AdmissionLoop& operator=(const AdmissionLoop&) = delete;

  Timestamp run_once();

  void start();
  void stop();

 private:
  // How long the loop rests after a pass while only submits come, in all, in
  // multiples of the time the pass took.
  static constexpr int kRestPerWork = 4;

  void run();
  [[nodiscard]] Duration cycle_period() const;
  // Applies the executor's reports. REQUIRES: the state held exclusively.
  void apply_reports(Timestamp now, WriteBatch& batch, Actions& actions)
      ALLOT_REQUIRES(cluster_.mutex());
  // Plans a cycle and carries it into the state (not yet out). Returns false
  // when there was nothing to plan.
  bool plan_cycle(const ClusterWriter& writer, Timestamp now, WriteBatch& batch, Actions& actions);

  ClusterState& cluster_;
  LoopSignal& signal_;
  ActionRunner& actions_;
  HealthMonitor& health_;
  const Clock& clock_;
  Duration idle_cycle_;
  Timestamp last_cycle_;  // used by the pass's thread only
  std::thread thread_;
};

}  // namespace allot
