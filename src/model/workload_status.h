// WorkloadStatus: what allotd knows about a submitted workload beyond its spec:
// its phase, where its pods run, and when things happened.
//
// Contract: plain values. Phases follow DESIGN.md section 3:
//   Pending -> Admitted -> Running -> Succeeded | Failed
//   Admitted | Running -> Preempted (requeued; back in its queue at queued_at)
//   any non-final phase -> Cancelled
//   Running -> Suspended (a Space idle past its idleTimeoutSeconds; holds no
//   quota and is not queued) -> Pending (resumed: docs/spaces.md)
// Pending and Preempted are both waiting for admission.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/time.h"

namespace allot {

enum class WorkloadPhase : uint8_t {
  kPending,
  kAdmitted,
  kRunning,
  kSucceeded,
  kFailed,
  kPreempted,
  kCancelled,
  kSuspended,  // a Space stopped for being idle: no quota, not queued, folder kept
};

// "Pending", "Admitted", ... as shown to users and stored.
std::string_view workload_phase_name(WorkloadPhase phase);
// Inverse of workload_phase_name(); case-sensitive. nullopt when unknown.
std::optional<WorkloadPhase> parse_workload_phase(std::string_view name);

// Why a running workload's pods are being stopped; stored with the workload,
// so that a stop acknowledged before a crash is carried out after it.
enum class StopCause : uint8_t {
  kNone,
  kPreempt,     // requeued once stopped
  kEvict,       // its node failed, was drained, or left the policy: requeued once stopped
  kCancel,      // cancelled once stopped
  kFail,        // a pod failed: the others are stopped, then it has failed
  kMaxRuntime,  // ran past maxRuntimeSeconds: failed once stopped
  kSuspend,     // a Space idle past its idleTimeoutSeconds: suspended once stopped
};

// "", "Preempted", "Evicted", "Cancelled", "PodFailed", "MaxRuntimeExceeded",
// "Idle".
std::string_view stop_cause_name(StopCause cause);
// Inverse of stop_cause_name(); nullopt when unknown.
std::optional<StopCause> parse_stop_cause(std::string_view name);

inline bool is_final(WorkloadPhase phase) {
  return phase == WorkloadPhase::kSucceeded || phase == WorkloadPhase::kFailed ||
         phase == WorkloadPhase::kCancelled;
}
inline bool is_waiting(WorkloadPhase phase) {
  return phase == WorkloadPhase::kPending || phase == WorkloadPhase::kPreempted;
}
inline bool holds_quota(WorkloadPhase phase) {
  return phase == WorkloadPhase::kAdmitted || phase == WorkloadPhase::kRunning;
}

// One pod's place: a node and the GPU indices on it.
struct PodAssignment {
  std::string node;
  std::vector<int32_t> gpus;

  friend bool operator==(const PodAssignment&, const PodAssignment&) = default;
};

struct PodSetStatus {
  std::string name;
  std::vector<PodAssignment> pods;  // size() = pods admitted (may be < count: partial)

  friend bool operator==(const PodSetStatus&, const PodSetStatus&) = default;
};

// An InferenceEndpoint's replicas (docs/endpoints.md): how many it wants
// (stored; set by its scale route), and, in a view, how many are admitted
// (admitted or running) and ready (running). Replica i is the workload
// "<endpoint>-<i>" of the same namespace.
struct ReplicaCounts {
  int32_t desired = 0;
  int32_t admitted = 0;
  int32_t ready = 0;

  friend bool operator==(const ReplicaCounts&, const ReplicaCounts&) = default;
};

// What the backend's own scheduler says of a workload's current or last
// run, where it has one (Slurm: the job, docs/slurm.md): `kind` names the
// backend ("slurm"). Stored as of the run's start (the job id stays; state,
// reason and node list are then Slurm's at that moment); a workload read
// alone (GET, describe) carries the executor's latest poll instead.
struct BackendJob {
  std::string kind;
  std::string job_id;
  std::string state;   // Slurm's job state: PENDING, RUNNING, ...
  std::string reason;  // Slurm's reason code ("None", "Resources", ...)
  std::string nodes;   // Slurm's node list ("node[1-2]")
  // allot's placement ("node1,node2") when Slurm runs the job on other nodes
  // (its NodeList differs); empty when they agree or the job has not run.
  std::string placed_nodes;

  friend bool operator==(const BackendJob&, const BackendJob&) = default;
};

struct WorkloadStatus {
  WorkloadPhase phase = WorkloadPhase::kPending;
  std::string team;
  // Who submitted it: the caller's Principal subject, set by allotd when it
  // accepts the workload (never taken from the manifest). Pods see it as
  // ALLOT_USER and run as that user's account in the team where the backend
  // has one. Empty: stored before it was recorded, or not known.
  std::string submitted_by;
  Timestamp created_at;
  Timestamp queued_at;                         // the place in the queue; kept when requeued
  std::optional<Timestamp> first_admitted_at;  // time to admission is measured to this
  std::optional<Timestamp> admitted_at;        // of the current or last run
  std::optional<Timestamp> started_at;
  std::optional<Timestamp> finished_at;
  std::string flavor;                  // while admitted or running
  std::vector<PodSetStatus> pod_sets;  // while admitted or running
  int32_t restarts = 0;                // times it was preempted or evicted
  // The last checkpoint the workload reported (POST .../checkpoint, or the
  // newest file in its checkpoint folder); kept across its runs.
  std::optional<Timestamp> last_checkpoint_at;
  StopCause stopping_for = StopCause::kNone;  // its pods are being stopped, and why
  bool deleting = false;                  // deleted while it ran: erased once its pods have stopped
  std::string preempted_by;               // "namespace/name" of the last preemptor
  std::optional<int32_t> exit_code;       // of the first failed pod, or 0
  std::string reason;                     // of the last transition ("Admitted", "Preempted", ...)
  std::string message;                    // human words for the reason
  std::optional<ReplicaCounts> replicas;  // InferenceEndpoints only
  std::optional<BackendJob> backend;      // the backend's job, where it has one

  friend bool operator==(const WorkloadStatus&, const WorkloadStatus&) = default;
};

}  // namespace allot
