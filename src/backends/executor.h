// Executor: the execution port (DESIGN.md section 5). allotd hands it whole
// admitted workloads (every pod, placed, with its team's identity) and it
// reports what becomes of each pod; it stops workloads and serves pod logs.
// It fits a backend that starts processes itself (local), one that submits a
// job per gang and polls it (Slurm), and one that renders objects for
// another scheduler to run (Kubernetes).
//
// Contract:
// - launch() starts (or hands to its backend) every pod of the workload. Each
//   pod is then reported through the PodEventSink: kRunning once it runs, and
//   exactly once kExited when it ended; a pod that cannot be started is
//   reported kExited with exit code 127 and `launch_error` saying why, without
//   a kRunning before it. A backend that starts pods itself reports every
//   pod's kRunning (or its launch failure) before launch() returns.
// - stop() stops every pod of a workload: SIGTERM (or the backend's
//   equivalent), then after `grace` a hard kill. Each stopped pod's exit is
//   reported with `stopped = true`. Stopping an unknown or finished workload
//   does nothing.
// - checkpoint_dir() names the folder a workload's checkpoints go to on the
//   backend: under its team's storage, the same for every run of the
//   workload and across restarts of allotd; empty (the default) when the
//   backend keeps none. last_checkpoint() says when the newest file in such
//   a folder was written (the workload's last checkpoint as it reports it by
//   writing there); nullopt (the default) when there is none or the backend
//   cannot tell. It may read storage: never call it holding a lock that
//   other requests wait on.
// - activity() reads how busy a workload's pods are (docs/spaces.md): the CPU
//   time its processes used so far and its heartbeat file's mtime, judged by
//   scheduler/space_idle.h. nullopt when the backend cannot tell, or the
//   workload has no running pod here: nothing is then judged idle. The
//   default says nullopt, so a backend without it never suspends a Space.
// - gpu_usage() is the latest measured utilisation of the backend's GPUs
//   (model/gpu_usage_sample.h), each attributed to the pod holding it then
//   (one sample per holder; a GPU no pod holds once, without a team). Empty
//   (the default) when the backend does not measure it. It returns what was
//   sampled before; it does not wait for the GPUs.
// - backend_job() says what the backend's own scheduler says of the
//   workload's job now (Slurm: job id, state, reason, node list, as of its
//   last batched poll; no call to Slurm of its own); nullopt (the default)
//   when the backend has no jobs of its own or does not know the workload.
//   Cheap and non-blocking: the service calls it under its locks. A backend
//   with jobs of its own tells the sink when a job is made or changes before
//   its pods run (PodEventSink::on_backend_job()).
// - accounted_jobs() reads the backend scheduler's own accounting of the
//   jobs it ran for this allotd's workloads that ended in the last 7 days
//   (Slurm: one sacct call): start, end, GPUs, account; for reconciling
//   metering with it (accounting/backend_reconciliation.h). Blocking I/O:
//   never call it holding a lock. Empty (the default) for a backend with no
//   accounting of its own.
// - account_usage() reads the backend's own report of GPU time per account
//   over [from, to), whole hours in UTC (Slurm: one `sreport cluster
//   AccountUtilizationByUser`, which reads slurmdbd's hourly rollups; an hour
//   not rolled up yet reads as what was rolled). Blocking I/O: never call it
//   holding a lock. kFailedPrecondition (the default) for a backend with no
//   accounting of its own.
// - hand_over() gives the backend, ahead of its admission, a workload placed
//   on capacity that running workloads (`after`) will free (a reclaim: they
//   are its victims, being stopped): the backend may queue it now, to start
//   once they have all ended (Slurm: a job pinned to the launch's nodes with
//   --dependency=afterany on their jobs, which Slurm starts at the pass their
//   end triggers). The workload stays pending in allot: nothing of it is
//   reported until launch() of the same workload takes it over (the job is
//   then the launch's, never submitted twice; a launch placed on other nodes
//   withdraws it first and starts afresh); withdraw() (or stop()) takes it
//   back without a report. It answers whether the backend took it: the
//   default takes none (launch() later starts the workload as usual), and so
//   does a backend that does not know every workload of `after` as running.
//   hand_over(), launch(), stop() and withdraw() of one workload are never
//   called concurrently (ActionRunner sequences a workload's actions).
// - Events may come from any thread of the backend; the sink must not call
//   back into the executor while holding locks the executor could wait on.
// - Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"
#include "base/time.h"
#include "model/activity_sample.h"
#include "model/backend_account_usage.h"
#include "model/backend_job_record.h"
#include "model/gpu_usage_sample.h"
#include "model/ids.h"
#include "model/workload_status.h"

namespace allot {

// One pod of a launch: where it runs and what it is given there.
struct PlacedPod {
  int32_t index = 0;  // 0..pods-1 across the workload's pod sets
  NodeId node;
  std::vector<int32_t> gpus;  // indices on the node; CUDA_VISIBLE_DEVICES
  ResourceVector resources;   // per pod: limits where the backend enforces them

  friend bool operator==(const PlacedPod&, const PlacedPod&) = default;
};

struct WorkloadLaunch {
  WorkloadId workload;
  std::string name;
  std::string namespace_name;
  TeamId team;  // whose identity the pods run under
  // Who submitted the workload (a Principal's subject, recorded by allotd as
  // status.submittedBy): pods see it as ALLOT_USER, and a backend that has
  // per-user identities runs them as that user within the team. Empty: not
  // known (a workload stored before it was recorded): the team's identity.
  std::string user;
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
  std::vector<PlacedPod> pods;
  // A folder that outlives the workload's runs (its checkpoints; env names
  // it): the backend creates it, writable by the team, before the pods
  // start. Empty: none.
  std::string checkpoint_dir;
  // For backends that schedule within limits of their own (Slurm: GRES type,
  // QoS, time limit): the flavor it was admitted on, its priority class and
  // its maxRuntime (nullopt: none). Backends that run pods themselves ignore
  // them (allot enforces maxRuntime).
  std::string flavor;
  std::string priority_class;
  std::optional<Duration> max_runtime;
  // The backend's job of the run that allotd's restart interrupted (its
  // stored status.backend), when this launch resumes that run: a backend
  // that keeps jobs (Slurm) takes that job over, whether it still runs or
  // ended while allotd was down (its end is then reported as this run's),
  // never submitting the run a second time. Empty: none; backends whose
  // pods end with allotd ignore it.
  std::string resume_job;
  // When this launch resumes an interrupted run whose backend job was never
  // recorded (allotd stopped between the backend's answer and storing it):
  // that run's admission. A backend that keeps jobs (Slurm) first looks for
  // a job of this workload submitted since then, and takes it over as it
  // would resume_job; only when there is none does it submit. nullopt: not
  // such a launch.
  std::optional<Timestamp> resume_since;

  friend bool operator==(const WorkloadLaunch&, const WorkloadLaunch&) = default;
};

// Whose checkpoint folder: a workload of a team (executor.h, checkpoint_dir()).
struct CheckpointOwner {
  TeamId team;
  std::string namespace_name;
  std::string name;
  WorkloadId workload;
};

enum class PodPhase : uint8_t { kRunning, kExited };

struct PodEvent {
  PodId pod;
  PodPhase phase = PodPhase::kRunning;
  // kExited only:
  int exit_code = 0;         // when it exited normally
  int signal = 0;            // when a signal ended it (0 otherwise)
  bool stopped = false;      // ended by stop()
  std::string launch_error;  // non-empty: it never ran, and why
  // The backend lost it (Slurm: its node failed, NODE_FAIL): not the
  // program's doing. allotd requeues the workload at its original position,
  // as when its node is evicted, instead of failing it.
  bool lost = false;

  [[nodiscard]] bool succeeded() const {
    return phase == PodPhase::kExited && signal == 0 && exit_code == 0 && !stopped && !lost;
  }
  friend bool operator==(const PodEvent&, const PodEvent&) = default;
};

class PodEventSink {
 public:
  virtual ~PodEventSink() = default;
  virtual void on_pod_event(const PodEvent& event) = 0;
  // The backend's job of a workload is new or changed before any of its pods
  // runs (Slurm: sbatch answered with the job's id, a job was adopted, or a
  // pending job's state or reason changed): the service takes backend_job()
  // into the stored workload, so that listings show the job while it waits.
  // The default ignores it (a backend without jobs of its own never calls it).
  virtual void on_backend_job(WorkloadId workload) { (void)workload; }
};

class Executor {
 public:
  virtual ~Executor() = default;

  virtual void launch(const WorkloadLaunch& launch) = 0;
  virtual void stop(WorkloadId workload, Duration grace) = 0;
  virtual bool hand_over(const WorkloadLaunch& /*launch*/,
                         const std::vector<WorkloadId>& /*after*/) {
    return false;
  }
  virtual void withdraw(WorkloadId /*workload*/) {}

  // Up to `max_bytes` of a pod's combined stdout and stderr from `offset`.
  // kNotFound when the pod never ran here.
  virtual Result<std::string> read_log(PodId pod, int64_t offset, int64_t max_bytes) = 0;

  // Where a pod's log lives, for people (may be empty for remote backends).
  [[nodiscard]] virtual std::string log_location(PodId pod) const = 0;

  [[nodiscard]] virtual std::string checkpoint_dir(const CheckpointOwner& /*owner*/) const {
    return {};
  }
  [[nodiscard]] virtual std::optional<Timestamp> last_checkpoint(
      const std::string& /*checkpoint_dir*/) const {
    return std::nullopt;
  }
  // How busy the workload's running pods are now (see the contract).
  [[nodiscard]] virtual std::optional<ActivitySample> activity(WorkloadId workload) {
    (void)workload;
    return std::nullopt;
  }
  // The GPUs' measured utilisation (see the contract).
  [[nodiscard]] virtual std::vector<GpuUsageSample> gpu_usage() { return {}; }
  // The backend's job of the workload (see the contract).
  [[nodiscard]] virtual std::optional<BackendJob> backend_job(WorkloadId workload) const {
    (void)workload;
    return std::nullopt;
  }
  // The backend's own accounting of its ended jobs (see the contract).
  virtual Result<std::vector<BackendJobRecord>> accounted_jobs() {
    return std::vector<BackendJobRecord>{};
  }
  // The backend's own GPU time per account (see the contract).
  virtual Result<BackendUsage> account_usage(Timestamp from, Timestamp to) {
    (void)from;
    (void)to;
    return Status(ErrorCode::kFailedPrecondition,
                  "this cluster's backend keeps no accounting of its own to compare with: allot's "
                  "metering is its only record");
  }
};

}  // namespace allot
