#include "service/simulation/simulation_loop.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "base/check.h"
#include "service/simulation/guarantee_tracker.h"

namespace allot {
namespace {

// Sorts the elements from `sorted_end` on and merges them into the sorted
// prefix before them: O(n) for a few newcomers.
template <typename T>
void merge_tail_by_id(std::vector<T>& items, size_t sorted_end) {
  const auto id_order = [](const T& a, const T& b) { return a.id < b.id; };
  auto tail = items.begin() + static_cast<std::ptrdiff_t>(sorted_end);
  std::sort(tail, items.end(), id_order);
  std::inplace_merge(items.begin(), tail, items.end(), id_order);
}

}  // namespace

SimulationLoop::SimulationLoop(SimulationLoopInput input, const SimulationOptions& options)
    : input_(std::move(input)),
      options_(options),
      scheduler_(input_.policy, options.scheduler),
      events_(*this),
      live_(input_.arrivals.size()),
      start_latencies_(input_.policy->priority_classes().size(), options.pod_start_latency) {
  ALLOT_CHECK(input_.cycle > Duration());
  ALLOT_CHECK(options.executor != nullptr);
  for (const auto& [name, latency] : options.pod_start_latency_by_class) {
    const PriorityClassIndex index = input_.policy->priority_class_by_name(name);
    ALLOT_CHECK(index.valid());
    start_latencies_[index.value()] = latency;
  }
  executor_ = options.executor(events_, [this](const WorkloadLaunch& launch) {
    const SimulatedArrival& arrival = input_.arrivals[launch.workload.value()];
    VirtualWork work;
    work.runtime = arrival.runtime;
    work.checkpointed = arrival.checkpointed;
    work.checkpoint_interval = arrival.checkpoint_interval;
    work.start_latency = start_latency_of(launch.workload);
    work.stop_latency = options_.pod_stop_latency;
    work.active_for = arrival.idle_after;
    return work;
  });
  snapshot_.nodes.resize(static_cast<size_t>(input_.policy->node_count()));
  for (size_t i = 0; i < input_.arrivals.size(); ++i) {
    ALLOT_CHECK(input_.arrivals[i].request.id == WorkloadId(i));
    if (const auto& at = input_.arrivals[i].withdraw_at)
      withdrawals_.emplace_back(*at, WorkloadId(i));
  }
  std::stable_sort(withdrawals_.begin(), withdrawals_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

Status SimulationLoop::run(SimulationTrace& trace) {
  ALLOT_CHECK(trace.workloads.size() == input_.arrivals.size());
  trace_ = &trace;
  const Timestamp first = next_event_time();
  if (first == Timestamp::infinite_future()) {
    return {};
  }
  Timestamp now = round_up(first);
  std::vector<int64_t> nominal;
  for (const TracedTeam& team : trace.teams) {
    nominal.push_back(team.nominal);
  }
  std::vector<GuaranteeNode> nodes;
  for (size_t n = 0; n < scheduler_.policy().nodes().size(); ++n) {
    const CompiledNode& node = scheduler_.policy().nodes()[n];
    nodes.push_back(
        {node.flavor, node.node.capacity[input_.primary],
         scheduler_.policy().node_listed_schedulable(NodeIndex(static_cast<uint32_t>(n)))});
  }
  std::vector<std::vector<FlavorIndex>> team_flavors;
  for (size_t team = 0; team < trace.teams.size(); ++team) {
    team_flavors.push_back(
        scheduler_.policy().team(TeamIndex(static_cast<uint32_t>(team))).flavor_order);
  }
  GuaranteeTracker guarantees(std::move(nominal), input_.primary, std::move(nodes),
                              std::move(team_flavors));
  while (true) {
    if (trace.cycles >= options_.max_cycles) {
      return {ErrorCode::kResourceExhausted, "simulation did not settle within " +
                                                 std::to_string(options_.max_cycles) +
                                                 " scheduling cycles (virtual time " +
                                                 (now - Timestamp::epoch()).to_string() + ")"};
    }
    ++trace.cycles;
    apply_executor_events(now);
    apply_node_events(now);
    apply_arrivals(now);
    apply_resumes(now);
    suspend_idle_spaces(now);
    refresh_snapshot(now);
    apply_withdrawals(now);
    kept_queues_.update(scheduler_.policy(), snapshot_.pending, std::move(touched_));
    touched_.clear();
    const Plan plan = scheduler_.plan(snapshot_, kept_queues_);
    guarantees.observe(snapshot_, plan, kept_queues_);
    if (options_.on_cycle) {
      options_.on_cycle(snapshot_, plan);
    }
    const bool acted = carry_out(plan, now);
    // Reservations hold until their gang starts: the next cycle gets them back.
    snapshot_.reservations.clear();
    for (const Reservation& r : plan.reservations) {
      snapshot_.reservations.push_back({r.workload, r.nodes, r.starts_at, r.consolidation});
    }
    const std::optional<Timestamp> next = next_tick(now, acted);
    // A cycle that changed nothing stands for the idle cycles skipped after it.
    guarantees.count(acted || !next ? 1 : (*next - now).ms() / input_.cycle.ms());
    if (!next) {
      break;
    }
    now = *next;
  }
  trace.end = now;
  for (size_t team = 0; team < trace.teams.size(); ++team) {
    trace.teams[team].owed_cycles = guarantees.counts()[team].owed;
    trace.teams[team].compliant_cycles = guarantees.counts()[team].compliant;
    trace.teams[team].reclaimable_cycles = guarantees.counts()[team].reclaimable;
    trace.teams[team].beyond_bound_cycles = guarantees.counts()[team].beyond_bound;
    trace.teams[team].fragmented_cycles = guarantees.counts()[team].fragmented;
    trace.teams[team].longest_violation_s =
        static_cast<double>(guarantees.counts()[team].longest_violated_run * input_.cycle.ms()) /
        1000.0;
  }
  for (const AdmittedWorkload& admitted : snapshot_.admitted) {
    trace.workloads[admitted.id.value()].running = true;  // only if the loop stopped early
  }
  return {};
}

// Only ends matter here: a pod is running from its launch on.
void SimulationLoop::EventBuffer::on_pod_event(const PodEvent& event) {
  if (event.phase == PodPhase::kExited) events.emplace_back(loop_.executor_->now(), event);
}

void SimulationLoop::apply_executor_events(Timestamp now) {
  executor_->advance_to(now);
  if (events_.events.empty()) {
    return;
  }
  for (const auto& [at, event] : events_.events) {
    end_pod(at, event);
  }
  events_.events.clear();
  std::erase_if(snapshot_.admitted,
                [&](const AdmittedWorkload& a) { return !live_[a.id.value()].run.running(); });
}

// The run ends with its last pod (the pods of a gang end together).
void SimulationLoop::end_pod(Timestamp at, const PodEvent& event) {
  ALLOT_CHECK(event.phase == PodPhase::kExited && event.launch_error.empty());
  const WorkloadId id = event.pod.workload;
  LiveWorkload& live = live_[id.value()];
  live.completed = live.completed && event.succeeded();
  if (++live.pods_ended < live.pods) {
    return;
  }
  TracedWorkload& traced = trace_->workloads[id.value()];
  trace_->segments.push_back({id.value(), live.started_at, at, live.amount});
  const RunEnd end = end_run(live.run, live.completed);
  if (end == RunEnd::kSucceeded) {
    traced.finished_at = at;
  } else if (end == RunEnd::kSuspended) {
    traced.suspended = true;
    if (const auto& resume_after = input_.arrivals[id.value()].resume_after) {
      resumes_.emplace(at + *resume_after, id);
    }
  } else if (end == RunEnd::kCancelled) {
    traced.finished_at = at;  // a withdrawn endpoint replica
    traced.withdrawn = true;
  } else {
    ALLOT_CHECK(is_requeue(end));  // else the simulator stops work only to requeue it
    traced.restarts = live.run.restarts;
    count_lost_work(id, end, at);
    make_pending(id);
  }
}

// The progress of the run that ended at `at` that its checkpoints did not
// keep: the next run does it again.
void SimulationLoop::count_lost_work(WorkloadId id, RunEnd end, Timestamp at) {
  if (input_.arrivals[id.value()].replica) return;  // serving: nothing to do again
  const LiveWorkload& live = live_[id.value()];
  const Duration progress = at - live.started_at - start_latency_of(id);
  const Duration lost = input_.arrivals[id.value()].checkpoints().lost(progress);
  trace_->workloads[id.value()].lost_work += lost;
  trace_->workloads[id.value()].lost_amount_ms += lost.ms() * live.amount;
  int64_t& total =
      end == RunEnd::kPreempted ? trace_->lost_to_preemption : trace_->lost_to_eviction;
  total += lost.ms() * live.amount;
}

void SimulationLoop::make_pending(WorkloadId id) {
  PendingWorkload request = input_.arrivals[id.value()].request;  // original queued_at
  request.preempted_by = live_[id.value()].run.preempted_by;
  if (const auto& resumed = live_[id.value()].queued_at) request.queued_at = *resumed;
  touched_.push_back(id);
  snapshot_.pending.push_back(std::move(request));
}

void SimulationLoop::apply_node_events(Timestamp now) {
  while (next_node_event_ < input_.node_events.size() &&
         input_.node_events[next_node_event_].at <= now) {
    const NodeHealthChange& change = input_.node_events[next_node_event_++];
    snapshot_.nodes[change.node.value()].healthy = change.healthy;
  }
}

void SimulationLoop::apply_arrivals(Timestamp now) {
  const size_t before = next_arrival_;
  while (next_arrival_ < input_.arrivals.size() &&
         input_.arrivals[next_arrival_].request.queued_at <= now) {
    make_pending(input_.arrivals[next_arrival_].request.id);
    ++next_arrival_;
  }
  if (options_.on_progress && next_arrival_ != before) {
    options_.on_progress(static_cast<int64_t>(next_arrival_),
                         static_cast<int64_t>(input_.arrivals.size()));
  }
}

// A returning user: the Space goes back to its queue, first among its
// team's waiting work of its priority.
void SimulationLoop::apply_resumes(Timestamp now) {
  while (!resumes_.empty() && resumes_.begin()->first <= now) {
    const WorkloadId id = resumes_.begin()->second;
    resumes_.erase(resumes_.begin());
    LiveWorkload& live = live_[id.value()];
    if (!live.run.suspended()) continue;
    const PendingWorkload& request = input_.arrivals[id.value()].request;
    std::vector<Timestamp> waiting;
    for (const PendingWorkload& other : snapshot_.pending) {
      if (other.team == request.team && other.priority == request.priority) {
        waiting.push_back(other.queued_at);
      }
    }
    live.queued_at = resumed_queue_position(live.queued_at.value_or(request.queued_at), waiting);
    resume_run(live.run);
    trace_->workloads[id.value()].suspended = false;
    ++trace_->resumes;
    make_pending(id);
  }
}

// Spaces idle past their timeout stop (with their class's grace period) and
// are suspended once stopped (end_pod()).
void SimulationLoop::suspend_idle_spaces(Timestamp now) {
  for (AdmittedWorkload& admitted : snapshot_.admitted) {
    const SimulatedArrival& arrival = input_.arrivals[admitted.id.value()];
    LiveWorkload& live = live_[admitted.id.value()];
    if (!arrival.idle_timeout || !live.run.running() || live.run.stopping()) continue;
    const std::optional<ActivitySample> sample = executor_->activity(admitted.id);
    if (!sample) continue;
    observe_activity(live.activity, *sample, now);
    if (!is_idle(live.activity, *arrival.idle_timeout, now)) continue;
    request_stop(live.run, StopCause::kSuspend);
    admitted.terminating = true;
    ++trace_->workloads[admitted.id.value()].suspensions;
    ++trace_->suspensions;
    const Duration grace = admitted.priority_class.valid()
                               ? input_.policy->priority_class(admitted.priority_class).grace_period
                               : Duration();
    executor_->suspend(admitted.id, grace);
  }
}

// The next resume, or the earliest idle deadline of a running Space.
Timestamp SimulationLoop::next_space_event() const {
  Timestamp next = resumes_.empty() ? Timestamp::infinite_future() : resumes_.begin()->first;
  for (const AdmittedWorkload& admitted : snapshot_.admitted) {
    const SimulatedArrival& arrival = input_.arrivals[admitted.id.value()];
    const LiveWorkload& live = live_[admitted.id.value()];
    if (!arrival.idle_timeout || !live.run.running() || live.run.stopping()) continue;
    next = std::min(next, idle_deadline(live.activity, *arrival.idle_timeout));
  }
  return next;
}

// Runs after refresh_snapshot(): pending is sorted, and stays so.
void SimulationLoop::apply_withdrawals(Timestamp now) {
  bool erased = false;
  while (next_withdrawal_ < withdrawals_.size() && withdrawals_[next_withdrawal_].first <= now) {
    const WorkloadId id = withdrawals_[next_withdrawal_++].second;
    LiveWorkload& live = live_[id.value()];
    TracedWorkload& traced = trace_->workloads[id.value()];
    if (live.run.waiting()) {
      withdraw(live.run);
      touched_.push_back(id);
      traced.finished_at = now;
      traced.withdrawn = true;
      erased = true;
    } else if (live.run.running()) {
      const bool was_stopping = live.run.stopping();
      request_stop(live.run, StopCause::kCancel);
      if (AdmittedWorkload* admitted = find_admitted(id)) admitted->terminating = true;
      const PriorityClassIndex priority_class = input_.arrivals[id.value()].request.priority_class;
      if (!was_stopping)
        executor_->stop(id, input_.policy->priority_class(priority_class).grace_period);
    }
  }
  if (erased) {
    std::erase_if(snapshot_.pending, [&](const PendingWorkload& p) {
      return live_[p.id.value()].run.state == RunState::kEnded;
    });
    pending_sorted_ = snapshot_.pending.size();
  }
}

void SimulationLoop::refresh_snapshot(Timestamp now) {
  snapshot_.now = now;
  merge_tail_by_id(snapshot_.pending, pending_sorted_);
  pending_sorted_ = snapshot_.pending.size();
  for (AdmittedWorkload& admitted : snapshot_.admitted) {
    if (input_.arrivals[admitted.id.value()].checkpointed) {
      admitted.last_checkpoint = modelled_checkpoint(admitted, now);
    }
  }
}

// When a checkpointing run last wrote a checkpoint: continuously (now), else
// at the last whole interval of its progress; its start when none yet.
Timestamp SimulationLoop::modelled_checkpoint(const AdmittedWorkload& admitted,
                                              Timestamp now) const {
  const Timestamp work_began =
      live_[admitted.id.value()].started_at + start_latency_of(admitted.id);
  const Duration kept = input_.arrivals[admitted.id.value()].checkpoints().kept(now - work_began);
  return kept > Duration() ? work_began + kept : admitted.admitted_at;
}

Duration SimulationLoop::start_latency_of(WorkloadId id) const {
  const SimulatedArrival& arrival = input_.arrivals[id.value()];
  const PriorityClassIndex index = arrival.request.priority_class;
  return arrival.class_named && index.valid() ? start_latencies_[index.value()]
                                              : options_.pod_start_latency;
}

WorkloadRun* SimulationLoop::ArrivedRuns::find_run(WorkloadId workload) {
  if (!workload.valid() || workload.value() >= loop_.next_arrival_) return nullptr;
  return &loop_.live_[workload.value()].run;
}

bool SimulationLoop::carry_out(const Plan& plan, Timestamp now) {
  ArrivedRuns runs(*this);
  const PlanEffects effects = allot::carry_out(plan, runs);
  for (const StopEffect& stop_effect : effects.stops) {
    stop(stop_effect);
  }
  // Victims without a grace period stop before the plan's admissions, which
  // may already use their capacity (the Plan contract).
  if (effects.any_immediate_stop()) apply_executor_events(now);
  for (const Admission* admission : effects.starts) {
    admit(*admission, now);
    touched_.push_back(admission->workload);
  }
  if (!newly_admitted_.empty()) {
    std::erase_if(snapshot_.pending,
                  [&](const PendingWorkload& p) { return !live_[p.id.value()].run.waiting(); });
    pending_sorted_ = snapshot_.pending.size();  // erasing keeps the order
    const size_t sorted_end = snapshot_.admitted.size();
    for (AdmittedWorkload& admitted : newly_admitted_) {
      snapshot_.admitted.push_back(std::move(admitted));
    }
    newly_admitted_.clear();
    merge_tail_by_id(snapshot_.admitted, sorted_end);
  }
  return !effects.empty();
}

AdmittedWorkload* SimulationLoop::find_admitted(WorkloadId id) {
  auto it =
      std::lower_bound(snapshot_.admitted.begin(), snapshot_.admitted.end(), id,
                       [](const AdmittedWorkload& a, WorkloadId value) { return a.id < value; });
  return it != snapshot_.admitted.end() && it->id == id ? &*it : nullptr;
}

// A failed node loses its work at once; a victim keeps running for its grace
// period. Either is requeued when it stops.
void SimulationLoop::stop(const StopEffect& stop_effect) {
  const WorkloadId id = stop_effect.workload;
  AdmittedWorkload* admitted = find_admitted(id);
  ALLOT_CHECK(admitted != nullptr);  // every running workload is in the snapshot
  admitted->terminating = true;
  if (stop_effect.cause == StopCause::kEvict) {
    ++trace_->evictions;
  } else {
    admitted->preempted_for = stop_effect.preemption->beneficiary;
    ++trace_->workloads[id.value()].preemptions;
    ++trace_->preemptions;
    if (stop_effect.preemption->reason == PreemptionReason::kConsolidation) {
      ++trace_->workloads[id.value()].moves;
      ++trace_->moves;
    }
  }
  executor_->stop(id, stop_effect.grace);
}

void SimulationLoop::admit(const Admission& admission, Timestamp now) {
  const WorkloadId id = admission.workload;
  LiveWorkload& live = live_[id.value()];
  const SimulatedArrival& arrival = input_.arrivals[id.value()];
  AdmittedWorkload admitted =
      admitted_from(arrival.request, admission.flavor, admission.assignment, now);
  if (live.queued_at) admitted.queued_at = *live.queued_at;  // a resumed Space's place
  live.amount = admitted.usage()[input_.primary];
  live.started_at = now;
  live.activity = start_activity(now);
  live.pods_ended = 0;
  live.completed = true;
  TracedWorkload& traced = trace_->workloads[id.value()];
  if (!traced.first_admitted_at) {
    traced.first_admitted_at = now;
  }
  ++trace_->admissions;
  WorkloadLaunch launch;
  launch.workload = id;
  for (const PodSetAssignment& pod_set : admission.assignment) {
    for (const PodPlacement& pod : pod_set.pods) {
      PlacedPod placed;
      placed.index = static_cast<int32_t>(launch.pods.size());
      placed.node = NodeId(input_.policy->node(pod.node).node.name);
      launch.pods.push_back(std::move(placed));
    }
  }
  live.pods = static_cast<int32_t>(launch.pods.size());
  ALLOT_CHECK(live.pods > 0);  // every pod set has count >= 1 (workload_request.h)
  executor_->launch(launch);
  newly_admitted_.push_back(std::move(admitted));
}

Timestamp SimulationLoop::next_event_time() const {
  Timestamp next = executor_->next_event_time();
  if (next_arrival_ < input_.arrivals.size()) {
    next = std::min(next, input_.arrivals[next_arrival_].request.queued_at);
  }
  if (next_node_event_ < input_.node_events.size()) {
    next = std::min(next, input_.node_events[next_node_event_].at);
  }
  if (next_withdrawal_ < withdrawals_.size()) {
    next = std::min(next, withdrawals_[next_withdrawal_].first);
  }
  return std::min(next, next_space_event());
}

// The earliest time after `now` at which a running workload leaves its
// minRuntimeSeconds window and becomes preemptible, which can change the plan.
Timestamp SimulationLoop::next_min_runtime_expiry(Timestamp now) const {
  Timestamp next = Timestamp::infinite_future();
  for (const AdmittedWorkload& admitted : snapshot_.admitted) {
    if (admitted.terminating || !admitted.priority_class.valid()) {
      continue;
    }
    const Duration min_runtime = input_.policy->priority_class(admitted.priority_class).min_runtime;
    const Timestamp expiry = admitted.admitted_at + min_runtime;
    // `>=`: whether a workload exactly min_runtime old may be preempted is the
    // scheduler's call, so the cycle after the expiry is visited too.
    if (min_runtime > Duration() && expiry >= now) {
      next = std::min(next, expiry);
    }
  }
  return next;
}

// After a plan that changed nothing, the next plan can only differ once an
// event happens (the scheduler is deterministic), so the loop may jump there.
std::optional<Timestamp> SimulationLoop::next_tick(Timestamp now, bool acted) const {
  const bool pending = !snapshot_.pending.empty();
  if (acted && pending) {
    return now + input_.cycle;
  }
  Timestamp wake = next_event_time();
  if (pending) {
    wake = std::min(wake, next_min_runtime_expiry(now));
  }
  if (wake == Timestamp::infinite_future()) {
    return std::nullopt;  // all done, or what is pending can never be admitted
  }
  if (!options_.skip_idle_cycles) {
    return now + input_.cycle;
  }
  return std::max(now + input_.cycle, round_up(wake));
}

Timestamp SimulationLoop::round_up(Timestamp t) const {
  const int64_t cycle = input_.cycle.ms();
  const int64_t ms = std::max<int64_t>(t.ms(), 0);
  return Timestamp::from_millis((ms + cycle - 1) / cycle * cycle);
}

}  // namespace allot
