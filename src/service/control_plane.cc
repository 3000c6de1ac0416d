#include "service/control_plane.h"

#include <cstdlib>
#include <iostream>
#include <utility>

#include "api/manifest_parser.h"
#include "scheduler/workload_request.h"
#include "service/admission_cycle.h"
#include "service/input_error.h"
#include "service/pod_lifecycle.h"
#include "service/workload_transitions.h"

namespace allot {
namespace {}  // namespace

ControlPlane::ControlPlane(Store& store, Executor& executor, NodeHealthChecker* health,
                           const Clock& clock, ControlPlaneOptions options)
    : store_(store),
      executor_(executor),
      health_(health),
      clock_(clock),
      options_(std::move(options)) {
  state_.checkpoint_root = options_.checkpoint_root;
}

ControlPlane::~ControlPlane() { shutdown(); }

Status ControlPlane::start() {
  ALLOT_RETURN_IF_ERROR(load());
  ALLOT_RETURN_IF_ERROR(recover(clock_.now()));
  next_health_ = clock_.now();
  workers_ =
      std::make_unique<OrderedWorkers>(options_.run_loop_thread ? options_.action_threads : 0);
  ready_ = true;
  if (options_.run_loop_thread) loop_thread_ = std::thread([this] { loop(); });
  return {};
}

void ControlPlane::shutdown() {
  {
    std::lock_guard lock(wake_mu_);
    stopping_ = true;
  }
  wake_cv_.notify_all();
  if (loop_thread_.joinable()) loop_thread_.join();
  workers_.reset();  // finishes the launches and stops already queued
  ready_ = false;
}

void ControlPlane::install_policy(PolicyState policy) {
  state_.policy = std::move(policy);
  state_.reservations.clear();
  const auto& compiled = state_.policy.compiled();
  state_.scheduler = compiled ? std::make_shared<const Scheduler>(compiled) : nullptr;
  for (const auto& [uid, live] : state_.workloads.active()) {
    if (!is_final(live->phase())) compile_request(*live);
  }
}

void ControlPlane::compile_request(LiveWorkload& live) const {
  const auto& compiled = state_.policy.compiled();
  if (!compiled) {
    live.unschedulable = "no policy has been applied";
    return;
  }
  Result<PendingWorkload> request = make_pending_workload(
      *compiled, live.doc.workload, WorkloadId(live.uid()), live.doc.status.queued_at);
  if (request.ok()) {
    live.request = std::move(request).value();
    live.unschedulable.clear();
  } else {
    live.unschedulable = "the current policy cannot run it: " + request.status().message();
  }
}

Result<LiveWorkload> ControlPlane::new_workload(const PolicyState& policy, const Workload& workload,
                                                uint64_t uid, Timestamp now) {
  const auto& compiled = policy.compiled();
  if (!compiled) {
    return invalid_argument("no team owns namespace '" + workload.meta.namespace_name +
                                "': no policy has been applied yet",
                            "metadata.namespace");
  }
  if (workload.spec.command.empty() && !workload.spec.sleep) {
    return invalid_argument(
        "a workload needs a command (spec.command) or a sleep duration (spec.sleep)",
        "spec.command");
  }
  Result<PendingWorkload> request =
      make_pending_workload(*compiled, workload, WorkloadId(uid), now);
  if (!request.ok()) return as_input_error(request.status());
  LiveWorkload live;
  live.doc.uid = uid;
  live.doc.workload = workload;
  live.doc.status.team = compiled->team(request->team).name;
  live.doc.status.created_at = now;
  live.doc.status.queued_at = now;
  live.doc.status.reason = "Submitted";
  live.doc.status.message = "waiting for admission";
  live.request = std::move(request).value();
  return live;
}

Result<std::string> ControlPlane::create_workload(const std::string& ns,
                                                  std::string_view manifest) {
  const uint64_t uid = next_uid_.fetch_add(1);
  ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed, parse_manifests_with_documents(
                                                     manifest, {ns, "wl-" + std::to_string(uid)}));
  if (parsed.documents.size() != 1 || parsed.bundle.workloads.size() != 1) {
    return invalid_argument("expected exactly one Workload document, got " +
                            std::to_string(parsed.documents.size()) + " documents");
  }
  const Workload& workload = parsed.bundle.workloads.front();
  if (workload.meta.namespace_name != ns) {
    return invalid_argument("metadata.namespace '" + workload.meta.namespace_name +
                                "' differs from the namespace of the URL '" + ns + "'",
                            "document 1 (Workload/" + workload.meta.name + "): metadata.namespace");
  }
  const Timestamp now = clock_.now();
  LiveWorkload live;
  {
    std::unique_lock lock(mu_);
    ALLOT_ASSIGN_OR_RETURN(live, new_workload(state_.policy, workload, uid, now));
    if (!state_.workloads.reserve_name(live.key())) {
      return Status(ErrorCode::kAlreadyExists, "workload " + live.key() + " already exists");
    }
  }
  WriteBatch batch;
  enter_phase(live, WorkloadPhase::kPending, "Submitted", "waiting for admission", now, batch);
  const Status committed = store_.commit(std::move(batch));
  std::unique_lock lock(mu_);
  state_.workloads.release_name(live.key());
  if (!committed.ok()) {
    return Status(ErrorCode::kUnavailable, "the workload was not stored: " + committed.message());
  }
  std::string view = live.stored;
  state_.workloads.insert(std::move(live));
  lock.unlock();
  wake(Wake::kSubmit);
  return view;
}

Result<ApplyResult> ControlPlane::apply(std::string_view manifests, bool dry_run) {
  std::lock_guard apply_lock(apply_mu_);
  ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed, parse_manifests_with_documents(manifests));
  if (parsed.bundle.scenario) {
    return invalid_argument("a Scenario is for `allot simulate`, not for allotd");
  }
  std::lock_guard writer(writer_mu_);
  ApplyResult result{dry_run, {}};
  std::vector<LiveWorkload> created;
  WriteBatch batch;
  const Timestamp now = clock_.now();
  PolicyState next;
  std::vector<std::string> reserved;
  // Names of the batch's workloads are held until the batch is in memory.
  struct Release {
    ControlPlane& plane;
    std::vector<std::string>& keys;
    ~Release() {
      std::unique_lock lock(plane.mu_);
      for (const std::string& key : keys) plane.state_.workloads.release_name(key);
    }
  } release{*this, reserved};
  {
    std::unique_lock lock(mu_);
    ALLOT_ASSIGN_OR_RETURN(next, state_.policy.with_applied(parsed.documents, result.changes));
    // Workloads are validated against the policy as it will be.
    for (size_t i = 0; i < parsed.bundle.workloads.size(); ++i) {
      const Workload& workload = parsed.bundle.workloads[i];
      const std::string key = workload.meta.namespace_name + "/" + workload.meta.name;
      if (!state_.workloads.reserve_name(key)) {
        return Status(ErrorCode::kAlreadyExists, "workload " + key + " already exists",
                      "Workload/" + key);
      }
      reserved.push_back(key);
      Result<LiveWorkload> live = new_workload(next, workload, 0, now);
      if (!live.ok()) {
        return Status(live.status().code(), live.status().message(),
                      "Workload/" + key + ": " + live.status().details());
      }
      created.push_back(std::move(live).value());
      result.changes.push_back({"Workload", key, "created", {}});
    }
  }
  if (dry_run) return result;
  for (const auto& [key, json] : next.documents()) {
    for (const PolicyChange& change : result.changes) {
      if (change.kind == key.first && change.name == key.second && change.action != "unchanged") {
        batch.put_objects.push_back({key.first, key.second, json.dump()});
      }
    }
  }
  for (LiveWorkload& live : created) {
    live.doc.uid = next_uid_.fetch_add(1);
    live.request.id = WorkloadId(live.doc.uid);
    enter_phase(live, WorkloadPhase::kPending, "Submitted", "waiting for admission", now, batch);
  }
  const Status committed = store_.commit(std::move(batch));
  if (!committed.ok()) {
    return Status(ErrorCode::kUnavailable, "nothing was applied: " + committed.message());
  }
  {
    std::unique_lock lock(mu_);
    install_policy(std::move(next));
    for (LiveWorkload& live : created) state_.workloads.insert(std::move(live));
  }
  wake();
  return result;
}

}  // namespace allot
