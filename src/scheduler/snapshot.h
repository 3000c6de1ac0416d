// Snapshot: everything the scheduler decides from, for one cycle.
//
// Contract: a value assembled by the caller (the service, the simulator, a
// test) from its own state; the scheduler never keeps it. Workload ids are
// unique across pending and admitted. `queued_at` is the workload's original
// place in its queue: a preempted or evicted workload keeps it when requeued.
#pragma once

#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/ids.h"

namespace allot {

struct PodSetRequest {
  int32_t count = 1;
  int32_t min_count = 1;  // partial admission may go down to this (== count: none)
  ResourceVector per_pod;
  FlavorIndex required_flavor;  // invalid: any flavor of the team

  friend bool operator==(const PodSetRequest&, const PodSetRequest&) = default;
};

// Where one pod runs: a node and the GPU indices it was given (bit i = GPU i).
struct PodPlacement {
  NodeIndex node;
  uint64_t gpu_mask = 0;

  friend bool operator==(const PodPlacement&, const PodPlacement&) = default;
};

// The pods of one pod set that were admitted (count may be below the request's
// count after partial admission).
struct PodSetAssignment {
  int32_t count = 0;
  std::vector<PodPlacement> pods;  // size() == count

  friend bool operator==(const PodSetAssignment&, const PodSetAssignment&) = default;
};

// Whether a workload is a replica of an InferenceEndpoint, and which kind.
enum class ReplicaRole : uint8_t { kNone, kGuaranteed, kBurst };

struct PendingWorkload {
  WorkloadId id;
  TeamIndex team;
  PriorityClassIndex priority_class;
  int32_t priority = 0;
  Timestamp queued_at;
  std::vector<PodSetRequest> pod_sets;
  Duration max_runtime = Duration::max();  // declared bound, used for backfill
  WorkloadId preempted_by;                 // the last workload that preempted this one
  // An endpoint's replica (scheduler/endpoint_replicas.h). Guaranteed: admitted
  // only within its team's nominal quota, never another team's victim.
  ReplicaRole replica_role = ReplicaRole::kNone;

  [[nodiscard]] bool guaranteed() const { return replica_role == ReplicaRole::kGuaranteed; }
};

struct AdmittedWorkload {
  WorkloadId id;
  TeamIndex team;
  PriorityClassIndex priority_class;
  int32_t priority = 0;
  Timestamp queued_at;
  Timestamp admitted_at;
  Timestamp last_checkpoint;  // work since then is lost on preemption
  Duration max_runtime = Duration::max();
  FlavorIndex flavor;
  std::vector<PodSetRequest> pod_sets;
  std::vector<PodSetAssignment> assignment;  // one per pod set
  bool terminating = false;                  // preempted or evicted; holds capacity until it stops
  WorkloadId preempted_for;                  // the beneficiary while terminating after a preemption
  // Its pods were seen running: its backend's job exists (a turnover's
  // promise names only such work, cycle_turnovers.cc). false: admitted, not started yet.
  bool running = true;
  ReplicaRole replica_role = ReplicaRole::kNone;  // see PendingWorkload

  [[nodiscard]] bool guaranteed() const { return replica_role == ReplicaRole::kGuaranteed; }

  // Total resources held: sum over pod sets of per_pod * assigned count.
  [[nodiscard]] ResourceVector usage() const;
};

// The running form of a pending workload once the scheduler admitted it:
// admitted and last checkpointed at `now`, on the admission's flavor and nodes.
// REQUIRES: admission.workload == pending.id.
AdmittedWorkload admitted_from(const PendingWorkload& pending, FlavorIndex flavor,
                               std::vector<PodSetAssignment> assignment, Timestamp now);

// The pending form of a workload that stopped (preempted or evicted): it keeps
// its original queue position (queued_at) and remembers who preempted it.
PendingWorkload requeued_from(const AdmittedWorkload& admitted);

struct NodeCondition {
  bool healthy = true;
  bool cordoned = false;

  [[nodiscard]] bool schedulable() const { return healthy && !cordoned; }
};

// Nodes held for a blocked gang (carried from the previous cycle's plan, so a
// reservation survives until the gang starts).
struct HeldReservation {
  WorkloadId workload;
  std::vector<NodeIndex> nodes;
  Timestamp starts_at;
  bool consolidation = false;  // see Reservation (plan.h)
};

// Why a workload was promised capacity that running work will free.
enum class HandoverKind : uint8_t {
  kReclaim,   // `after` are its victims, stopping for it (cycle_handovers.cc)
  kTurnover,  // `after` is one running workload of its own team, ending by itself
              // (cycle_turnovers.cc)
};

// A workload promised capacity that running workloads (`after`) will free:
// `assignment` on `flavor`, within what they hold. Its backend may hold its
// job ready meanwhile (executor.h's hand_over()); it holds nothing in allot
// until they have ended.
struct Handover {
  WorkloadId workload;
  std::vector<WorkloadId> after;
  FlavorIndex flavor;
  std::vector<PodSetAssignment> assignment;  // one per pod set
  HandoverKind kind = HandoverKind::kReclaim;
  friend bool operator==(const Handover&, const Handover&) = default;
};

struct Snapshot {
  Timestamp now;
  std::vector<HeldReservation> reservations;  // the previous plan's reservations
  std::vector<Handover> handovers;            // the previous plan's handovers
  std::vector<NodeCondition> nodes;           // by NodeIndex; empty means all healthy
  std::vector<AdmittedWorkload> admitted;
  std::vector<PendingWorkload> pending;
};

}  // namespace allot
