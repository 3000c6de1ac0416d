// ControlPlane: allotd's service layer put together (DESIGN.md section 10).
// It owns the state and its rooms, each a use case group of its own:
//
//   access()     AccessControl    authenticate, sessions, authorize (every room asks it)
//   changes()    ChangeFeed       what changed, told to watchers as they may see it
//   service_accounts() ServiceAccounts  the teams' service accounts and their tokens
//   scim()       ScimService      the SCIM directory (service/identity), whose
//                                 groups and deactivations AccessControl applies
//   policies()   PolicyService    apply, delete and read the policy; top
//   workloads()  WorkloadService  submit, cancel, delete, list, get, events, logs
//   nodes()      NodeService      list, get, cordon, drain, uncordon
//   loop()       AdmissionLoop    the scheduling loop on real time
//   reports()    ReportService    usage reports from the metering ledger
//   team_stats() TeamStatsService the Teams view's waits, fair share and usage series
//   hardware_stats() HardwareStatsService GPUs allocated, free, unhealthy over time
//   activity_stats() ActivityStatsService workloads pending, running; signals firing over time
//   exceptions() ExceptionService approve or reject requested PolicyExceptions
//   evidence()   EvidenceService  a project's evidence (contracts, bindings, usage)
//   metrics()    MetricsService   what /metrics shows; activity() records it
//
// with ClusterState (the state, its locks, commits and the read watermark),
// ActionRunner (carrying decisions out on the Executor, collecting its
// reports), HealthMonitor (node health checks) and recovery.h (start-up).
//
// Contract:
// - start() loads the store and recovers: work that was admitted or running
//   when the previous process stopped is requeued at its original position
//   (a backend that keeps jobs, Slurm, adopts them when they are launched
//   again). The stored policy is carried into the backend again (a failure
//   is logged: allotd serves on).
//   Then, unless options.run_loop_thread is false (tests call
//   loop().run_once()), the admission loop runs on its own thread.
// - Executors report pod events to the ControlPlane (a PodEventSink), from any
//   thread. shutdown() stops the loop; the destructor calls it.
// Thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "backends/executor.h"
#include "backends/node_health.h"
#include "base/clock.h"
#include "base/logger.h"
#include "base/status.h"
#include "service/control/access_control.h"
#include "service/control/action_runner.h"
#include "service/control/activity_stats.h"
#include "service/control/admission_loop.h"
#include "service/control/backend_carrier.h"
#include "service/control/budget_monitor.h"
#include "service/control/change_feed.h"
#include "service/control/checkpoint_watcher.h"
#include "service/control/cluster_state.h"
#include "service/control/contract_service.h"
#include "service/control/control_audit.h"
#include "service/control/evidence_service.h"
#include "service/control/exception_service.h"
#include "service/control/hardware_stats.h"
#include "service/control/health_monitor.h"
#include "service/control/loop_signal.h"
#include "service/control/metrics_service.h"
#include "service/control/node_service.h"
#include "service/control/policy_service.h"
#include "service/control/report_service.h"
#include "service/control/service_accounts.h"
#include "service/control/signal_monitor.h"
#include "service/control/signal_webhooks.h"
#include "service/control/team_stats.h"
#include "service/control/usage_reconciliation.h"
#include "service/control/workload_service.h"
#include "service/identity/local_login.h"
#include "service/identity/scim_service.h"
#include "service/identity/uuid_ids.h"
#include "store/store.h"

namespace allot {

struct ControlPlaneOptions {
  bool run_loop_thread = true;
  // Longest wait between cycles when nothing happens; the Cluster's
  // scheduling.cycle replaces it when shorter.
  Duration idle_cycle = Duration::seconds(1);
  Duration health_interval = Duration::seconds(10);
  // How often the checkpoint folders of running workloads are read for their
  // newest file (checkpoint_watcher.h).
  Duration checkpoint_scan_interval = Duration::seconds(10);
  // OIDC logins (allotd --oidc-issuer; app/ builds it; null: none). Must
  // outlive the plane.
  IdTokenAuthenticator* id_tokens = nullptr;
  // For tests: called on the loop's thread between a cycle's plan and its
  // application, with no lock held (admission_loop.h).
  std::function<void()> after_planning;
  // The audit log's sink of admissions, preemptions and evictions
  // (control_audit.h); empty: none.
  ControlAuditSink audit;
  // A backend that owns its nodes and limits (Slurm; backend_carrier.h): the
  // policy is carried into it when applied and at start, cordon and drain
  // reach its nodes. Default: none (the local backend). Must outlive the plane.
  BackendPorts backend;
  // Where the Signals' webhooks are POSTed (webhook_sender.h; app/ builds an
  // HTTP one). Null: events stay undelivered in the store. Must outlive the plane.
  WebhookSender* webhook_sender = nullptr;
  // How often the signals sample /metrics and are evaluated (signal_monitor.h).
  Duration signal_sample_interval = kSignalSampleEvery;
  // false: the metering ledger is not stored (ClusterState::set_metering;
  // allotd --metering off, for A/B measurements of its cost only).
  bool metering = true;
  // How the scheduler plans (scheduler.h): app/ turns turnover handovers on for
  // a backend that holds jobs ready (Slurm).
  SchedulerOptions scheduler;
};

class ControlPlane final : public PodEventSink {
 public:
  // `health` may be null: no node health checks.
  ControlPlane(Store& store, Executor& executor, NodeHealthChecker* health, const Clock& clock,
               Logger& logger, const ControlPlaneOptions& options);
  ~ControlPlane() override;
  ControlPlane(const ControlPlane&) = delete;
  ControlPlane& operator=(const ControlPlane&) = delete;

  Status start();
  void shutdown();
  [[nodiscard]] bool ready() const { return ready_.load(); }

  AccessControl& access() { return access_; }
  // What changes, for watchers (change_feed.h; GET /api/v1/watch).
  ChangeFeed& changes() { return changes_; }
  ServiceAccounts& service_accounts() { return service_accounts_; }
  ScimService& scim() { return scim_; }
  PolicyService& policies() { return policies_; }
  ContractService& contracts() { return contracts_; }
  ExceptionService& exceptions() { return exceptions_; }
  WorkloadService& workloads() { return workloads_; }
  NodeService& nodes() { return nodes_; }
  ReportService& reports() { return reports_; }
  TeamStatsService& team_stats() { return team_stats_; }
  HardwareStatsService& hardware_stats() { return hardware_stats_; }
  ActivityStatsService& activity_stats() { return activity_stats_; }
  EvidenceService& evidence() { return evidence_; }
  MetricsService& metrics() { return metrics_; }
  SignalWebhooks& webhooks() { return webhooks_; }
  // Where the loop and the server record what happens (activity_metrics.h).
  ActivityMetrics& activity() { return activity_; }
  AdmissionLoop& loop() { return loop_; }

  // Brings metering in line with the backend's own accounting
  // (usage_reconciliation.h); how many adjustments were stored.
  Result<size_t> reconcile_usage_with_backend() {
    return allot::reconcile_usage_with_backend(cluster_, actions_.executor());
  }

  // PodEventSink: called from executor threads.
  void on_pod_event(const PodEvent& event) override { actions_.on_pod_event(event); }
  void on_backend_job(WorkloadId workload) override { actions_.on_backend_job(workload); }

  // For tests: returns once `count` reads wait for a commit to land.
  void wait_until_reads_wait(size_t count) const { cluster_.wait_until_reads_wait(count); }
  // For tests: returns once `count` policy changes asked to pass the submits
  // in flight (policy_gate.h).
  void wait_until_policy_changes_asked(size_t count) {
    cluster_.policy_gate().wait_until_changes_asked(count);
  }

 private:
  const Clock& clock_;
  Logger& logger_;
  bool run_loop_thread_;
  BackendCarrier backend_;
  UuidIds scim_ids_;
  ScimService scim_;
  LocalLogin local_login_;
  AccessControl access_;
  ChangeFeed changes_;
  LoopSignal signal_;
  ActionRunner actions_;
  ClusterState cluster_;  // carries decisions out on actions_
  HealthMonitor health_;
  CheckpointWatcher checkpoints_;
  PolicyService policies_;
  ContractService contracts_;
  ExceptionService exceptions_;
  WorkloadService workloads_;
  NodeService nodes_;
  ReportService reports_;
  TeamStatsService team_stats_;
  HardwareStatsService hardware_stats_;
  ActivityStatsService activity_stats_;
  EvidenceService evidence_;
  ActivityMetrics activity_;
  MetricsService metrics_;
  BudgetMonitor budgets_;
  SignalWebhooks webhooks_;
  SignalMonitor signals_;
  ServiceAccounts service_accounts_;
  // Declared last: destroyed (its thread joined) before the rest.
  AdmissionLoop loop_;
  std::atomic<bool> ready_{false};
};

}  // namespace allot
