// ControlPlane, part 2: loading and recovery, and the admission loop.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <utility>
#include <vector>

#include "service/admission_cycle.h"
#include "service/control_plane.h"
#include "service/pod_lifecycle.h"
#include "service/workload_transitions.h"

namespace allot {
namespace {

constexpr std::string_view kNodeConditionKind = "NodeCondition";

// How long the loop rests after a pass while only submits come, in all, in
// multiples of the time the pass took (see loop()).
constexpr int kRestPerWork = 4;

Result<NodeState> decode_node_state(const std::string& text) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return invalid_argument("stored node condition is not a JSON object");
  }
  NodeState node;
  node.healthy = json.value("healthy", true);
  node.cordoned = json.value("cordoned", false);
  node.auto_cordoned = json.value("autoCordoned", false);
  node.reason = json.value("reason", "");
  return node;
}

}  // namespace

Status ControlPlane::load() {
  ALLOT_ASSIGN_OR_RETURN(StoredState stored, store_.load());
  std::map<DocumentKey, nlohmann::json> documents;
  std::unique_lock lock(mu_);
  for (const ObjectRecord& object : stored.objects) {
    if (object.kind == kNodeConditionKind) {
      ALLOT_ASSIGN_OR_RETURN(state_.nodes[object.name], decode_node_state(object.document));
      continue;
    }
    nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
    if (json.is_discarded()) {
      return invalid_argument("stored " + object.kind + " '" + object.name + "' is not JSON");
    }
    documents[{object.kind, object.name}] = std::move(json);
  }
  ALLOT_ASSIGN_OR_RETURN(PolicyState policy, PolicyState::from_documents(std::move(documents)));
  install_policy(std::move(policy));
  std::vector<LiveWorkload> lives(stored.workloads.size());
  ALLOT_RETURN_IF_ERROR(decode_workloads(stored.workloads, lives));
  for (LiveWorkload& live : lives) state_.workloads.insert(std::move(live));
  next_uid_ = stored.max_workload_id + 1;
  return {};
}

// Parsing and decoding the stored workloads is most of a restart: it runs in
// contiguous chunks on up to kMaxDecodeThreads threads. Each chunk reads only
// its records and the installed policy, and writes only its slots of `out`.
// The error reported is the one of the lowest record, as a single thread would.
Status ControlPlane::decode_workloads(std::vector<WorkloadRecord>& records,
                                      std::vector<LiveWorkload>& out) const {
  constexpr size_t kMaxDecodeThreads = 8;
  constexpr size_t kMinPerThread = 4096;
  const auto decode = [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) {
      WorkloadRecord& record = records[i];
      const nlohmann::json json = nlohmann::json::parse(record.document, nullptr, false);
      if (json.is_discarded()) {
        return invalid_argument("stored workload " + std::to_string(record.id) + " is not JSON");
      }
      LiveWorkload& live = out[i];
      Result<WorkloadDocument> doc = workload_from_json(json);
      if (!doc.ok()) return doc.status();
      live.doc = std::move(doc).value();
      live.stored = std::move(record.document);
      if (!is_final(live.phase())) compile_request(live);
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

Status ControlPlane::recover(Timestamp now) {
  WriteBatch batch;
  {
    std::unique_lock lock(mu_);
    for (auto& [uid, live] : state_.workloads.all()) {
      if (!holds_quota(live.phase())) continue;
      ++live.doc.status.restarts;
      enter_phase(live, WorkloadPhase::kPending, "Requeued",
                  "allotd restarted while it ran; requeued at its original position", now, batch);
    }
  }
  if (batch.empty()) return {};
  return store_.commit(std::move(batch));
}

void ControlPlane::on_pod_exit(const PodExit& exit) {
  {
    std::lock_guard lock(reports_mu_);
    exits_.push_back(exit);
  }
  wake();
}

void ControlPlane::wake(Wake why) {
  bool notify = false;
  {
    std::lock_guard lock(wake_mu_);
    dirty_ = true;
    if (why == Wake::kChange) changed_ = true;
    // A loop that rests is not woken when the wake would not end its rest: it
    // would only go back to rest, a context switch per submit for nothing.
    notify =
        listening_ == Listen::kAnyWake || (why == Wake::kChange && listening_ == Listen::kChanges);
  }
  if (notify) wake_cv_.notify_all();
}

Duration ControlPlane::cycle_period() const {
  Duration period = options_.idle_cycle;
  std::shared_lock lock(mu_);
  if (const auto& compiled = state_.policy.compiled()) period = std::min(period, compiled->cycle());
  return period;
}

void ControlPlane::loop() {
  while (true) {
    const auto started = std::chrono::steady_clock::now();
    const Timestamp due = run_once();
    const auto worked = std::chrono::steady_clock::now() - started;
    std::unique_lock lock(wake_mu_);
    // The loop rests before it serves the wakes that came meanwhile, together:
    // a burst into a long queue costs a cycle per rest, not a cycle per wake.
    // - As long as it just worked, whatever comes: the loop takes at most half
    //   of a core.
    // - Then, while only new submits came, three times as long again: a
    //   stream of submits leaves four fifths of the time to the requests. A
    //   cycle over 20,000 pending workloads takes about 10 ms, so such a
    //   submit waits at most 40 ms more to be considered. Changes that can
    //   free or move capacity (pod exits, cancels, nodes, policy) end this
    //   part of the rest: they are served as before.
    listening_ = Listen::kStopOnly;
    wake_cv_.wait_for(lock, worked, [this] { return stopping_; });
    listening_ = Listen::kChanges;
    wake_cv_.wait_for(lock, worked * (kRestPerWork - 1), [this] { return stopping_ || changed_; });
    if (stopping_) return;
    const Duration wait =
        std::max(Duration::millis(1), std::min(due - clock_.now(), cycle_period()));
    listening_ = Listen::kAnyWake;
    wake_cv_.wait_for(lock, std::chrono::milliseconds(wait.ms()),
                      [this] { return dirty_ || stopping_; });
    listening_ = Listen::kStopOnly;
    if (stopping_) return;
  }
}

void ControlPlane::drain_reports(Timestamp now, WriteBatch& batch, Actions& actions) {
  std::vector<PodExit> exits;
  std::vector<LaunchReport> launches;
  {
    std::lock_guard lock(reports_mu_);
    exits.swap(exits_);
    launches.swap(launches_);
  }
  for (const LaunchReport& report : launches) {
    if (LiveWorkload* live = state_.workloads.find(report.uid)) {
      for (const auto& [pod, why] : report.failures) {
        note(*live, "Warning", "LaunchFailed",
             "pod " + std::to_string(pod) + " could not start: " + why, now, batch);
      }
    }
    apply_pods_started(report.uid, report.started, state_, now, batch);
  }
  for (const PodExit& exit : exits) apply_pod_exit(exit, state_, now, batch, actions);
  erase_finished_deletes(batch);
  state_.workloads.prune_finished();
}

void ControlPlane::erase_finished_deletes(WriteBatch& batch) {
  std::erase_if(erase_when_stopped_, [&](uint64_t uid) {
    const LiveWorkload* live = state_.workloads.find(uid);
    if (live != nullptr && !is_final(live->phase())) return false;
    state_.workloads.erase(uid);
    batch.delete_workloads.push_back(uid);
    std::erase_if(batch.put_workloads, [uid](const WorkloadRecord& r) { return r.id == uid; });
    std::erase_if(batch.events, [uid](const EventRecord& e) { return e.workload_id == uid; });
    return true;
  });
}

void ControlPlane::put_node_condition(const std::string& name, WriteBatch& batch) const {
  const NodeState& node = state_.nodes.at(name);
  const nlohmann::json json = {{"healthy", node.healthy},
                               {"cordoned", node.cordoned},
                               {"autoCordoned", node.auto_cordoned},
                               {"reason", node.reason}};
  batch.put_objects.push_back({std::string(kNodeConditionKind), name, json.dump()});
}

bool ControlPlane::apply_health(const std::vector<NodeHealthReport>& reports, Timestamp now,
                                WriteBatch& batch) {
  bool changed = false;
  for (const NodeHealthReport& report : reports) {
    NodeState& node = state_.nodes[report.node];
    node.last_heartbeat = now;
    if (node.healthy == report.healthy) continue;
    node.healthy = report.healthy;
    if (!report.healthy) {
      node.reason = report.reason;
      if (!node.cordoned) node.auto_cordoned = true;
      node.cordoned = true;
    } else {
      node.reason.clear();
      if (node.auto_cordoned) node.cordoned = false;
      node.auto_cordoned = false;
    }
    std::cerr << "allotd: node " << report.node << " is "
              << (report.healthy ? "healthy again" : "unhealthy: " + report.reason) << "\n";
    put_node_condition(report.node, batch);
    changed = true;
  }
  return changed;
}

bool ControlPlane::plan_cycle(Timestamp now, WriteBatch& batch, Actions& actions) {
  CycleInput input;
  std::shared_ptr<const Scheduler> scheduler;
  {
    // Reading only: readers go on meanwhile. The caller holds writer_mu_, so
    // the only other change (a submit adding a workload) cannot matter here.
    std::shared_lock lock(mu_);
    if (!state_.scheduler) return false;
    scheduler = state_.scheduler;
    input = build_snapshot(state_, now);
  }
  if (!input.orphans.empty()) {
    auto lock = lock_for_change();
    evict_orphans(input.orphans, state_, now, batch, actions);
  }
  if (input.snapshot.pending.empty() && input.snapshot.admitted.empty()) return false;
  // Planning reads only the snapshot: readers and submits go on meanwhile.
  // Nothing else changes existing workloads: the caller holds writer_mu_.
  Plan plan = scheduler->plan(input.snapshot);
  auto lock = lock_for_change();
  if (scheduler != state_.scheduler) return true;  // the policy changed: plan again
  apply_plan(std::move(plan), state_, now, batch, actions);
  return true;
}

std::unique_lock<std::shared_mutex> ControlPlane::lock_for_change() {
  std::unique_lock lock(mu_);
  changes_made_.fetch_add(1);
  return lock;
}

void ControlPlane::commit_or_die(WriteBatch batch) {
  const uint64_t made = changes_made_.load();
  const Status status = batch.empty() ? Status() : store_.commit(std::move(batch));
  if (status.ok()) {
    stored_.advance(made);
    return;
  }
  // The decisions in memory are not on disk and cannot be taken back; carrying
  // them out could lose them. The store on disk is the truth a restart uses.
  std::cerr << "allotd: fatal: cannot store the admission loop's decisions: " << status.to_string()
            << "\n";
  std::_Exit(70);
}

Timestamp ControlPlane::run_once() {
  const Duration period = cycle_period();
  Timestamp now = clock_.now();
  std::vector<NodeHealthReport> reports;
  if (health_ != nullptr && now >= next_health_) {
    std::vector<std::string> names;
    {
      std::shared_lock lock(mu_);
      if (const auto& compiled = state_.policy.compiled()) {
        for (const CompiledNode& node : compiled->nodes()) names.push_back(node.node.name);
      }
    }
    reports = health_->check(names);
    now = clock_.now();
    next_health_ = now + options_.health_interval;
  }
  Actions actions;
  Timestamp next_deadline;
  {
    std::lock_guard writer(writer_mu_);
    WriteBatch batch;
    bool cycle_due = false;
    {
      auto lock = lock_for_change();
      {
        // Taken before the reports are drained: a report that comes after
        // the drain wakes the next pass.
        std::lock_guard wake_lock(wake_mu_);
        cycle_due = dirty_ || now - last_cycle_ >= period;
        dirty_ = false;
        changed_ = false;
      }
      drain_reports(now, batch, actions);
      if (apply_health(reports, now, batch)) cycle_due = true;
      next_deadline = enforce_max_runtime(state_, now, batch, actions);
    }
    // Nothing to store yet: readers need not wait for the plan.
    if (batch.empty()) stored_.advance(changes_made_.load());
    if (cycle_due) {
      last_cycle_ = now;
      plan_cycle(now, batch, actions);
    }
    commit_or_die(std::move(batch));
  }
  carry_out(std::move(actions));
  const Timestamp next_health = health_ ? next_health_ : Timestamp::infinite_future();
  return std::min({next_deadline, next_health, now + period});
}

void ControlPlane::carry_out(Actions actions) {
  for (const StopAction& stop : actions.stops) executor_.stop(stop.uid, stop.grace);
  if (actions.launches.empty()) return;
  std::vector<LaunchReport> reports;
  for (const std::vector<PodLaunch>& pods : actions.launches) {
    LaunchReport report;
    report.uid = pods.empty() ? 0 : pods.front().workload_id;
    for (const PodLaunch& pod : pods) {
      const Status launched = executor_.launch(pod);
      if (launched.ok()) {
        ++report.started;
      } else {
        report.failures.emplace_back(pod.pod_index, launched.message());
        on_pod_exit({pod.workload_id, pod.pod_index, 127, 0, false});
      }
    }
    reports.push_back(std::move(report));
  }
  {
    std::lock_guard lock(reports_mu_);
    for (LaunchReport& report : reports) launches_.push_back(std::move(report));
  }
  wake();
}

}  // namespace allot
