// ActionRunner: carries the control plane's decisions out on the Executor
// (withdrawn handovers, handovers, stops, then launches) and collects what the executor reports
// back about each pod (started, exited, could not start), for the admission loop.
//
// Contract:
// - Decisions are carried out only after they were committed (DESIGN:
//   decisions are persisted before they are carried out). sequence() is
//   called with each change's actions once it is stored, in the order the
//   changes were made, one call at a time (commit_pipeline.h); it returns
//   the actions to carry out now, with carry_out(), on any thread. An action
//   on a workload whose earlier action is not carried out yet waits for it
//   and is carried out right after it, by the thread that carried that one
//   out: so the executor sees each workload's actions in order (a stop never
//   overtakes the launch it stops), while actions on different workloads
//   never wait for each other (a launch forks pods: it may take long). The
//   caller of carry_out() waits for the local backend's forks (a backend that
//   submits asynchronously returns at once).
// - A turnover's handover (HandoverKind::kTurnover: a job held ready behind
//   running work, which nothing else of the change waits for) is carried out
//   on one of the runner's own kTurnoverThreads threads, taken in the order
//   handed to them, so that carry_out() never waits for its submission
//   (Slurm's hand_over() runs sbatch) and a cycle's promises reach the backend
//   while the jobs they follow still run (one thread, one sbatch at a time,
//   fell behind a cycle's 128 promises of 1-second jobs); the workload's later
//   actions wait for it as for any earlier action. A
//   reclaim's is carried out by carry_out() itself, before the stops of its
//   victims. Handovers still queued when the runner is destroyed are dropped.
// - on_pod_event() may be called from any executor thread; it queues the
//   event and wakes the loop.
// - on_backend_job() likewise queues the workload whose backend job is new
//   or changed (a Slurm job id known at sbatch time) and wakes the loop.
// - take_reports() hands over everything queued since its last call: the
//   pods that started, the exits in the order they came, and the workloads
//   whose backend job changed.
// Thread-safe; no lock is held while the executor is called.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "backends/executor.h"
#include "base/mutex.h"
#include "service/control/loop_signal.h"
#include "service/control/server_state.h"

namespace allot {

struct PodReports {
  std::vector<PodId> started;
  std::vector<PodEvent> exits;  // a non-empty launch_error: the pod never ran
  // Workloads whose backend job is new or changed before a pod ran
  // (PodEventSink::on_backend_job()).
  std::vector<WorkloadId> backend_jobs;
};

class ActionRunner final : public PodEventSink {
 public:
  ActionRunner(Executor& executor, LoopSignal& signal);
  ~ActionRunner() override;
  ActionRunner(const ActionRunner&) = delete;
  ActionRunner& operator=(const ActionRunner&) = delete;

  [[nodiscard]] Actions sequence(Actions actions) ALLOT_EXCLUDES(mu_);
  // REQUIRES: `actions` came from sequence().
  void carry_out(Actions actions) ALLOT_EXCLUDES(mu_);
  void on_pod_event(const PodEvent& event) override ALLOT_EXCLUDES(mu_);
  void on_backend_job(WorkloadId workload) override ALLOT_EXCLUDES(mu_);
  PodReports take_reports() ALLOT_EXCLUDES(mu_);

  Executor& executor() { return executor_; }

 private:
  using Action = std::variant<StopAction, WorkloadLaunch, HandoverAction, WithdrawAction>;

  void run(const Action& action);
  // The workload's action was carried out: carries out those that waited for it.
  void done(WorkloadId workload) ALLOT_EXCLUDES(mu_);
  // Threads that carry out turnovers' handovers: as many as the Slurm
  // executor's sbatch submitters (slurm_executor.h).
  static constexpr int kTurnoverThreads = 4;

  // A runner's thread: carries out the turnovers' handovers, taken in order.
  void hand_over_turnovers() ALLOT_EXCLUDES(mu_);

  Executor& executor_;
  LoopSignal& signal_;
  Mutex mu_;
  PodReports reports_ ALLOT_GUARDED_BY(mu_);
  // Workloads with an action sequenced and not yet carried out, and the
  // actions that wait for it, in order.
  std::unordered_map<WorkloadId, std::deque<Action>> busy_ ALLOT_GUARDED_BY(mu_);
  std::deque<HandoverAction> turnovers_ ALLOT_GUARDED_BY(mu_);  // for the runner's threads
  bool stopping_ ALLOT_GUARDED_BY(mu_) = false;
  CondVar turnover_queued_;
  std::vector<std::thread> threads_;  // last: started once the rest is built
};

}  // namespace allot
