#include "service/control/admission_loop.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "service/control/admission_cycle.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/workload_transitions.h"

namespace allot {

void AdmissionLoop::start() {
  thread_ = std::thread([this] { run(); });
}

void AdmissionLoop::stop() {
  signal_.stop();
  if (thread_.joinable()) thread_.join();
}

Duration AdmissionLoop::cycle_period() const {
  Duration period = idle_cycle_;
  ReaderLock lock(cluster_.mutex());
  if (const auto& compiled = cluster_.view().policy.compiled()) {
    period = std::min(period, compiled->cycle());
  }
  return period;
}

void AdmissionLoop::run() {
  while (true) {
    const auto started = std::chrono::steady_clock::now();
    const Timestamp due = run_once();
    const auto worked = std::chrono::steady_clock::now() - started;
    // The loop rests before it serves the wakes that came meanwhile, together:
    // a burst into a long queue costs a cycle per rest, not a cycle per wake.
    // As long as it just worked, whatever comes: the loop takes at most half
    // of a core. Then, while only new submits came, three times as long again:
    // a cycle over 20,000 pending workloads takes about 10 ms, so such a
    // submit waits at most 40 ms more to be considered.
    if (!signal_.rest_after_work(worked, worked * (kRestPerWork - 1))) return;
    const Duration wait =
        std::max(Duration::millis(1), std::min(due - clock_.now(), cycle_period()));
    if (!signal_.wait_for_wake(wait)) return;
  }
}

void AdmissionLoop::apply_reports(Timestamp now, WriteBatch& batch, Actions& actions) {
  const PodReports reports = actions_.take_reports();
  ServerState& state = cluster_.state();
  for (const PodEvent& exit : reports.exits) {
    if (exit.launch_error.empty()) continue;
    if (LiveWorkload* live = state.workloads.find(exit.pod.workload)) {
      note(*live, "Warning", "LaunchFailed",
           "pod " + std::to_string(exit.pod.index) + " could not start: " + exit.launch_error, now,
           batch);
    }
  }
  for (const PodId& pod : reports.started) {
    apply_pods_started(pod.workload, 1, state, now, batch);
  }
  for (const PodEvent& exit : reports.exits) apply_pod_exit(exit, state, now, batch, actions);
  erase_deleted_workloads(state, batch);
  state.workloads.prune_finished();
}

bool AdmissionLoop::plan_cycle(const ClusterWriter& writer, Timestamp now, WriteBatch& batch,
                               Actions& actions) {
  CycleInput input;
  std::shared_ptr<const Scheduler> scheduler;
  {
    // Reading only: readers go on meanwhile. The caller holds the writer
    // lock, so the only other change (a submit adding a workload) cannot
    // matter here.
    ReaderLock lock(cluster_.mutex());
    if (!cluster_.view().scheduler) return false;
    scheduler = cluster_.view().scheduler;
    input = build_snapshot(cluster_.view(), now);
  }
  if (!input.orphans.empty()) {
    const ChangeLock lock(cluster_, writer);
    evict_orphans(input.orphans, cluster_.state(), now, batch, actions);
  }
  if (input.snapshot.pending.empty() && input.snapshot.admitted.empty()) return false;
  // Planning reads only the snapshot: readers and submits go on meanwhile.
  const Plan plan = scheduler->plan(input.snapshot);
  const ChangeLock lock(cluster_, writer);
  if (scheduler != cluster_.state().scheduler) return true;  // the policy changed: plan again
  apply_plan(plan, cluster_.state(), now, batch, actions);
  return true;
}

Timestamp AdmissionLoop::run_once() {
  const Duration period = cycle_period();
  const std::vector<NodeHealthReport> reports = health_.check_if_due();
  const Timestamp now = clock_.now();
  Actions actions;
  Timestamp next_deadline;
  {
    ClusterWriter writer(cluster_);
    WriteBatch batch;
    bool cycle_due = false;
    {
      const ChangeLock lock(cluster_, writer);
      // Taken before the reports are drained: a report that comes after the
      // drain wakes the next pass.
      cycle_due = signal_.take_flags() || now - last_cycle_ >= period;
      apply_reports(now, batch, actions);
      if (health_.apply(reports, now, cluster_.state(), batch)) cycle_due = true;
      next_deadline = enforce_max_runtime(cluster_.state(), now, batch, actions);
    }
    // Nothing to store yet: readers need not wait for the plan.
    if (batch.empty()) writer.nothing_to_store();
    if (cycle_due) {
      last_cycle_ = now;
      plan_cycle(writer, now, batch, actions);
    }
    writer.commit_or_die(std::move(batch));
  }
  actions_.carry_out(std::move(actions));
  return std::min({next_deadline, health_.next_due(), now + period});
}

}  // namespace allot
