#include "service/control/live_workload.h"

#include <utility>

namespace allot {

bool waits_to_resume_run(const LiveWorkload& live) {
  return live.doc.status.phase == WorkloadPhase::kPending &&
         live.doc.status.reason == kRequeuedAtRestart;
}

std::string resume_job_of(const LiveWorkload& live) {
  const WorkloadStatus& status = live.doc.status;
  return waits_to_resume_run(live) && status.backend ? status.backend->job_id : std::string();
}

std::optional<Timestamp> resume_since_of(const LiveWorkload& live) {
  const WorkloadStatus& status = live.doc.status;
  return waits_to_resume_run(live) && !status.backend ? status.admitted_at : std::nullopt;
}

LiveWorkload* WorkloadTable::find(WorkloadId id) {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &it->second;
}

const LiveWorkload* WorkloadTable::find(WorkloadId id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &it->second;
}

LiveWorkload* WorkloadTable::find(const std::string& ns, const std::string& name) {
  auto it = by_key_.find(ns + "/" + name);
  return it == by_key_.end() ? nullptr : find(it->second);
}

const LiveWorkload* WorkloadTable::find(const std::string& ns, const std::string& name) const {
  auto it = by_key_.find(ns + "/" + name);
  return it == by_key_.end() ? nullptr : find(it->second);
}

bool WorkloadTable::name_taken(const std::string& key) const {
  return by_key_.contains(key) || reserved_.contains(key);
}

bool WorkloadTable::reserve_name(const std::string& key) {
  if (name_taken(key)) return false;
  reserved_.insert(key);
  return true;
}

void WorkloadTable::release_name(const std::string& key) { reserved_.erase(key); }

WorkloadRun* WorkloadTable::find_run(WorkloadId workload) {
  LiveWorkload* live = find(workload);
  return live == nullptr ? nullptr : &live->run;
}

namespace {

RunState run_state_of(WorkloadPhase phase) {
  if (is_final(phase)) return RunState::kEnded;
  if (phase == WorkloadPhase::kSuspended) return RunState::kSuspended;
  return holds_quota(phase) ? RunState::kRunning : RunState::kWaiting;
}

}  // namespace

void WorkloadTable::insert(LiveWorkload workload) {
  const WorkloadId id = workload.id();
  workload.run.state = run_state_of(workload.phase());
  workload.run.restarts = workload.doc.status.restarts;
  workload.run.stop = workload.doc.status.stopping_for;
  by_key_[workload.key()] = id;
  // Ids grow: a new workload goes last, and the hint makes that O(1).
  auto it = by_id_.insert_or_assign(by_id_.end(), id, std::move(workload));
  if (is_final(it->second.phase())) {
    active_.erase(id);
  } else {
    active_.insert_or_assign(active_.end(), id, &it->second);
  }
}

void WorkloadTable::prune_finished() {
  std::erase_if(active_, [](const auto& entry) { return is_final(entry.second->phase()); });
}

void WorkloadTable::erase(WorkloadId id) {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return;
  by_key_.erase(it->second.key());
  active_.erase(id);
  by_id_.erase(it);
}

}  // namespace allot
