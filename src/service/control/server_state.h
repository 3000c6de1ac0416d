// ServerState: everything allotd decides from, in memory, and the actions a
// change of it asks the executor to carry out.
//
// Contract: guarded by ClusterState's lock (cluster_state.h); the functions that change it
// (admission_cycle.h, pod_lifecycle.h, node_operations.h) append what must be
// stored to a WriteBatch and what must be carried out to Actions. The caller
// commits the batch before it carries out the actions (DESIGN: decisions are
// persisted before they are carried out).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/executor.h"
#include "base/time.h"
#include "model/views/node_view.h"
#include "scheduler/replica_scaling.h"
#include "scheduler/scheduler.h"
#include "service/control/budget_state.h"
#include "service/control/contract_state.h"
#include "service/control/exception_state.h"
#include "service/control/live_workload.h"
#include "service/control/metering_state.h"
#include "service/control/policy_state.h"
#include "service/control/settled_queues.h"
#include "service/control/signal_state.h"
#include "service/control/workload_activity.h"
#include "store/store.h"

namespace allot {

struct NodeState {
  bool healthy = true;
  bool cordoned = false;
  bool auto_cordoned = false;  // cordoned because a health check failed
  std::string reason;          // why unhealthy or cordoned
  std::optional<Timestamp> last_heartbeat;
  // The backend's own state and reason of the node as of the last health
  // round (Slurm's; node_health.h); in memory only, empty until then.
  std::string backend_state;
  std::string backend_reason;
  // The last health changes, oldest first (stored with the condition).
  std::vector<NodeHealthChange> health_history;

  friend bool operator==(const NodeState&, const NodeState&) = default;
};

struct ServerState {
  PolicyState policy;
  std::shared_ptr<const Scheduler> scheduler;  // null while the policy is empty
  // How the scheduler plans for this backend (ControlPlaneOptions::scheduler).
  SchedulerOptions scheduler_options;
  WorkloadTable workloads;
  // The workloads' spans pending and running, and admission waits, kept up
  // to date as they change (workload_activity.h).
  WorkloadActivity activity;
  std::map<std::string, NodeState> nodes;  // by node name; absent: healthy, schedulable
  std::vector<HeldReservation> reservations;
  // The last plan's handovers (scheduler/cycle_handovers.cc), in memory: a
  // restart starts without (a job held ready is then adopted by its launch).
  std::vector<Handover> handovers;
  // The teams' queues whose new submits need no cycle, after a plan that
  // changed nothing (settled_queues.h); in memory.
  SettledQueues settled;
  // The executor's checkpoint folder of a workload (executor.h); unset: none.
  std::function<std::string(const CheckpointOwner&)> checkpoint_dir;
  // The backend's job of a workload now (executor.h backend_job()); unset or
  // nullopt: none.
  std::function<std::optional<BackendJob>(WorkloadId)> backend_job;
  // Deleted workloads that still stop: erased once their pods have exited.
  std::vector<WorkloadId> erase_when_stopped;
  // The scaling rule of each queueDepth or cpu endpoint, with its scale-down
  // window (in memory: a restart starts it afresh), shared by the scale route
  // and the CPU autoscaler (endpoint_autoscale.h).
  std::map<WorkloadId, ReplicaScaler> endpoint_scalers;
  // Rate cards, capacity, missing data (metering_state.h).
  MeteringState metering;
  // The budgets' standing, the teams they stop, the alerts sent (budget_state.h).
  BudgetState budgets;
  // Each Contract's status: phase and history (contract_state.h).
  ContractStatuses contracts;
  // Each PolicyException's status: phase and history (exception_state.h).
  ExceptionStatuses exception_statuses;
  // The signals' trackers and undelivered events (signal_state.h).
  SignalsState signals;
};

struct StopAction {
  WorkloadId workload;
  Duration grace;

  friend bool operator==(const StopAction&, const StopAction&) = default;
};

// A pending workload's launch at its promised placement, handed to the
// executor ahead of its admission (executor.h's hand_over()).
struct HandoverAction {
  WorkloadLaunch launch;
  std::vector<WorkloadId> after;
  // A reclaim's is carried out before its victims' stops; a turnover's on the
  // ActionRunner's own thread, waiting for nothing (action_runner.h).
  HandoverKind kind = HandoverKind::kReclaim;

  friend bool operator==(const HandoverAction&, const HandoverAction&) = default;
};

// A broken promise: what the executor holds ready is taken back (withdraw()).
struct WithdrawAction {
  WorkloadId workload;

  friend bool operator==(const WithdrawAction&, const WithdrawAction&) = default;
};

struct Actions {
  std::vector<StopAction> stops;
  std::vector<WorkloadLaunch> launches;
  std::vector<HandoverAction> handovers;    // carried out before the stops
  std::vector<WithdrawAction> withdrawals;  // carried out first

  [[nodiscard]] bool empty() const {
    return stops.empty() && launches.empty() && handovers.empty() && withdrawals.empty();
  }

  friend bool operator==(const Actions&, const Actions&) = default;
};

}  // namespace allot
