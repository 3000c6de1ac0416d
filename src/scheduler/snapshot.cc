#include "scheduler/snapshot.h"

namespace allot {

ResourceVector AdmittedWorkload::usage() const {
  ResourceVector total;
  for (size_t i = 0; i < pod_sets.size() && i < assignment.size(); ++i) {
    total += pod_sets[i].per_pod * assignment[i].count;
  }
  return total;
}

AdmittedWorkload admitted_from(const PendingWorkload& pending, FlavorIndex flavor,
                               std::vector<PodSetAssignment> assignment, Timestamp now) {
  AdmittedWorkload a;
  a.id = pending.id;
  a.team = pending.team;
  a.priority_class = pending.priority_class;
  a.priority = pending.priority;
  a.queued_at = pending.queued_at;
  a.admitted_at = now;
  a.last_checkpoint = now;
  a.max_runtime = pending.max_runtime;
  a.flavor = flavor;
  a.pod_sets = pending.pod_sets;
  a.assignment = std::move(assignment);
  a.replica_role = pending.replica_role;
  return a;
}

PendingWorkload requeued_from(const AdmittedWorkload& admitted) {
  PendingWorkload p;
  p.id = admitted.id;
  p.team = admitted.team;
  p.priority_class = admitted.priority_class;
  p.priority = admitted.priority;
  p.queued_at = admitted.queued_at;
  p.pod_sets = admitted.pod_sets;
  p.max_runtime = admitted.max_runtime;
  p.preempted_by = admitted.preempted_for;
  p.replica_role = admitted.replica_role;
  return p;
}

}  // namespace allot
