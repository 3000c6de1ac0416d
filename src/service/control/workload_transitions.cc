#include "service/control/workload_transitions.h"

#include <memory>
#include <string>
#include <utility>

#include "service/control/metering.h"

namespace allot {

WorkloadRecord make_record(const LiveWorkload& workload) {
  const WorkloadDocument& doc = workload.doc;
  return {.id = doc.uid,
          .namespace_name = doc.workload.meta.namespace_name,
          .name = doc.workload.meta.name,
          .team = doc.status.team,
          .phase = doc.status.phase,
          .document = *workload.stored};
}

void store_record(LiveWorkload& workload, WriteBatch& batch) {
  // The stored stop is the run's: one source, kept whenever the record is.
  workload.doc.status.stopping_for = workload.run.stop;
  workload.stored = std::make_shared<const std::string>(encode_workload(workload.doc));
  batch.upsert_workload(make_record(workload));
}

void enter_phase(LiveWorkload& workload, WorkloadPhase phase, std::string reason,
                 std::string message, Timestamp now, WriteBatch& batch) {
  WorkloadStatus& status = workload.doc.status;
  status.phase = phase;
  switch (phase) {
    case WorkloadPhase::kAdmitted:
      status.admitted_at = now;
      if (!status.first_admitted_at) status.first_admitted_at = now;
      status.started_at.reset();
      status.finished_at.reset();
      break;
    case WorkloadPhase::kRunning: status.started_at = now; break;
    case WorkloadPhase::kPending:
    case WorkloadPhase::kPreempted:
    case WorkloadPhase::kSuspended:
      status.flavor.clear();
      status.pod_sets.clear();
      break;
    case WorkloadPhase::kSucceeded:
    case WorkloadPhase::kFailed:
    case WorkloadPhase::kCancelled: status.finished_at = now; break;
  }
  // The capacity is released: the metering ledger's interval ends with this batch.
  if (!holds_quota(phase)) close_allocation(workload, now, batch);
  status.reason = reason;
  status.message = message;
  batch.events.push_back({0, workload.id(), now.ms(), std::string(workload_phase_name(phase)),
                          std::move(reason), std::move(message)});
  store_record(workload, batch);
}

void note(LiveWorkload& workload, const char* type, std::string reason, std::string message,
          Timestamp now, WriteBatch& batch) {
  workload.doc.status.reason = reason;
  workload.doc.status.message = message;
  batch.events.push_back({0, workload.id(), now.ms(), type, std::move(reason), std::move(message)});
  store_record(workload, batch);
}

}  // namespace allot
