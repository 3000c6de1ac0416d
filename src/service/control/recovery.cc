#include "service/control/recovery.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/contract_status_json.h"
#include "api/exception_status_json.h"
#include "service/control/access_control.h"
#include "service/control/contract_state.h"
#include "service/control/metering.h"
#include "service/control/node_conditions.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/policy_installation.h"
#include "service/control/review_notices.h"
#include "service/control/service_accounts.h"
#include "service/control/workload_transitions.h"
#include "service/identity/scim_service.h"

namespace allot {
namespace {

// Parsing and decoding the stored workloads is most of a restart: it runs in
// contiguous chunks on up to kMaxDecodeThreads threads. Each chunk reads only
// its records and the installed policy, and writes only its slots of `out`.
// The error reported is the one of the lowest record, as a single thread would.
Status decode_workloads(const PolicyState& policy, std::vector<WorkloadRecord>& records,
                        std::vector<LiveWorkload>& out) {
  constexpr size_t kMaxDecodeThreads = 8;
  constexpr size_t kMinPerThread = 4096;
  const auto decode = [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) {
      WorkloadRecord& record = records[i];
      const nlohmann::json json = nlohmann::json::parse(record.document, nullptr, false);
      if (json.is_discarded()) {
        return invalid_argument("stored workload " + std::to_string(record.id.value()) +
                                " is not JSON");
      }
      LiveWorkload& live = out[i];
      Result<WorkloadDocument> doc = workload_from_json(json);
      if (!doc.ok()) return doc.status();
      live.doc = std::move(doc).value();
      live.stored = std::make_shared<const std::string>(std::move(record.document));
      if (!is_final(live.phase())) compile_request(policy, live);
    }
    return Status();
  };
  const size_t count = records.size();
  const size_t threads = std::clamp<size_t>(
      std::min<size_t>(std::thread::hardware_concurrency(), count / kMinPerThread), 1,
      kMaxDecodeThreads);
  std::vector<Status> results(threads);
  std::vector<std::thread> workers;
  const size_t chunk = (count + threads - 1) / threads;
  for (size_t t = 1; t < threads; ++t) {
    workers.emplace_back([&, t] {
      results[t] = decode(std::min(count, t * chunk), std::min(count, (t + 1) * chunk));
    });
  }
  results[0] = decode(0, std::min(count, chunk));
  for (std::thread& worker : workers) worker.join();
  for (const Status& status : results) {
    if (!status.ok()) return status;
  }
  return {};
}

// Its pods went with allotd. A run that nothing was stopping ends as if its
// node had failed; one that was being stopped ends as its stop said.
void end_interrupted_run(LiveWorkload& live, Timestamp now, WriteBatch& batch) {
  if (!live.run.stopping()) request_stop(live.run, StopCause::kEvict);
  const RunEnd end = end_run(live.run, false);
  live.doc.status.restarts = live.run.restarts;
  live.pods = live.pods_started = live.pods_exited = 0;
  const std::string why = "allotd restarted while its pods ran";
  switch (end) {
    case RunEnd::kCancelled:
      enter_phase(live, WorkloadPhase::kCancelled, "Cancelled", "cancelled; " + why, now, batch);
      return;
    case RunEnd::kFailed:
      enter_phase(live, WorkloadPhase::kFailed, "PodFailed",
                  "a pod failed and its other pods were being stopped; " + why, now, batch);
      return;
    case RunEnd::kMaxRuntime:
      enter_phase(live, WorkloadPhase::kFailed, "MaxRuntimeExceeded",
                  "ran past maxRuntimeSeconds and was being stopped; " + why, now, batch);
      return;
    case RunEnd::kSuspended:
      enter_phase(live, WorkloadPhase::kSuspended, "Idle",
                  "was being suspended for being idle; " + why +
                      "; its quota is released, `allot resume` requeues it",
                  now, batch);
      return;
    case RunEnd::kSucceeded:  // not reached: nothing completed
    case RunEnd::kPreempted:
    case RunEnd::kEvicted:
      // Its stored status.backend names the run's job, which the launch
      // that resumes it hands the backend (resume_job_of()).
      enter_phase(live, WorkloadPhase::kPending, std::string(kRequeuedAtRestart),
                  why + "; requeued at its original position", now, batch);
      return;
  }
}

Result<ContractStatus> decode_stored_contract_status(const ObjectRecord& object) {
  const nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
  Result<ContractStatus> status = decode_contract_status(json);
  if (!status.ok()) {
    return invalid_argument("stored ContractStatus '" + object.name +
                            "' is invalid: " + status.status().to_string());
  }
  return status;
}

Result<ExceptionStatus> decode_stored_exception_status(const ObjectRecord& object) {
  const nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
  Result<ExceptionStatus> status = decode_exception_status(json);
  if (!status.ok()) {
    return invalid_argument("stored PolicyExceptionStatus '" + object.name +
                            "' is invalid: " + status.status().to_string());
  }
  return status;
}

// Everything but the RBAC installation, under the state's lock; `rbac` gets
// the applied RBAC objects.
Status load_into_state(ClusterState& cluster, std::vector<ObjectRecord>& access_objects,
                       RbacPolicy& rbac) {
  ALLOT_ASSIGN_OR_RETURN(StoredState stored, cluster.store().load());
  std::map<DocumentKey, nlohmann::json> documents;
  WriterLock lock(cluster.mutex());
  ServerState& state = cluster.state();
  for (const ObjectRecord& object : stored.objects) {
    if (AccessControl::is_access_kind(object.kind) ||
        ServiceAccounts::is_service_account_kind(object.kind) ||
        ScimService::is_directory_kind(object.kind)) {
      access_objects.push_back(object);
      continue;
    }
    if (object.kind == kContractStatusKind) {
      ALLOT_ASSIGN_OR_RETURN(state.contracts[object.name], decode_stored_contract_status(object));
      continue;
    }
    if (object.kind == kExceptionStatusKind) {
      ALLOT_ASSIGN_OR_RETURN(state.exception_statuses[object.name],
                             decode_stored_exception_status(object));
      continue;
    }
    if (object.kind == kBudgetAlertKind) {
      state.budgets.alerted.insert(object.name);
      continue;
    }
    if (object.kind == kContractReviewEventKind) {
      ALLOT_RETURN_IF_ERROR(
          load_contract_review_event(object.name, object.document, state.signals));
      continue;
    }
    if (object.kind == kSignalEventKind) {
      ALLOT_RETURN_IF_ERROR(load_signal_event(object.name, object.document, state.signals));
      continue;
    }
    if (is_metering_kind(object.kind)) {
      ALLOT_RETURN_IF_ERROR(load_metering_object(object, state.metering));
      continue;
    }
    if (object.kind == kNodeConditionKind) {
      ALLOT_ASSIGN_OR_RETURN(state.nodes[object.name], decode_node_condition(object.document));
      continue;
    }
    nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
    if (json.is_discarded()) {
      return invalid_argument("stored " + object.kind + " '" + object.name + "' is not JSON");
    }
    documents[{object.kind, object.name}] = std::move(json);
  }
  ALLOT_ASSIGN_OR_RETURN(PolicyState policy, PolicyState::from_documents(std::move(documents)));
  // Only Approved exceptions apply (the first cycle applies them).
  policy = policy.with_withheld_exceptions(withheld_exceptions(state.exception_statuses));
  rbac = policy.rbac();
  install_policy(state, std::move(policy));
  std::vector<LiveWorkload> lives(stored.workloads.size());
  ALLOT_RETURN_IF_ERROR(decode_workloads(state.policy, stored.workloads, lives));
  for (LiveWorkload& live : lives) state.workloads.insert(std::move(live));
  finish_metering_load(state.metering);
  attach_open_allocations(std::move(stored.open_allocations), state);
  // Ids start at 1 and are never handed out twice, also after a delete.
  cluster.set_next_id(WorkloadId(stored.max_workload_id ? stored.max_workload_id->value() + 1 : 1));
  return {};
}

}  // namespace

Status load_state(ClusterState& cluster, std::vector<ObjectRecord>& access_objects) {
  RbacPolicy rbac;
  ALLOT_RETURN_IF_ERROR(load_into_state(cluster, access_objects, rbac));
  // The applied RBAC objects decide from the first request on.
  cluster.access().install_rbac(std::move(rbac));
  return {};
}

Status requeue_interrupted(ClusterState& cluster, Timestamp now) {
  WriteBatch batch;
  MeteringChanges changes;
  int64_t oldest = now.ms();  // the oldest workload's creation: its runs are after it
  {
    WriterLock lock(cluster.mutex());
    ServerState& state = cluster.state();
    for (auto& [id, live] : state.workloads.all()) {
      oldest = std::min(oldest, live.doc.status.created_at.ms());
      if (live.doc.status.deleting) state.erase_when_stopped.push_back(id);
      if (live.run.running()) end_interrupted_run(live, now, batch);
    }
    erase_deleted_workloads(state, batch);
    record_restart(state, now, batch);
    changes = metering_changes(state.metering, state.policy.policy(), state.policy.backend_nodes(),
                               state.policy.compiled().get(), now);
    put_metering_changes(changes, batch);
  }
  if (!batch.empty()) ALLOT_RETURN_IF_ERROR(cluster.store().commit(std::move(batch)));
  ALLOT_ASSIGN_OR_RETURN(const std::vector<AllocationRecord> ledger,
                         cluster.store().allocations(oldest, INT64_MAX));
  WriterLock lock(cluster.mutex());
  apply_metering_changes(std::move(changes), cluster.state().metering);
  cluster.state().activity.rebuild(cluster.state().workloads, ledger);
  return {};
}

}  // namespace allot
