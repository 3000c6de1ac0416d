#include "service/simulation/simulation_loop.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "base/check.h"
#include "service/simulation/guarantee_tracker.h"

namespace allot {
namespace {

sim::SimWorkId work_id(WorkloadId id) { return sim::SimWorkId(id.value()); }

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
      live_(input_.arrivals.size()) {
  ALLOT_CHECK(input_.cycle > Duration());
  snapshot_.nodes.resize(static_cast<size_t>(input_.policy->node_count()));
  for (size_t i = 0; i < input_.arrivals.size(); ++i) {
    ALLOT_CHECK(input_.arrivals[i].request.id == WorkloadId(i));
  }
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
  GuaranteeTracker guarantees(std::move(nominal), input_.primary);
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
    refresh_snapshot(now);
    const Plan plan = scheduler_.plan(snapshot_);
    guarantees.observe(snapshot_, plan);
    if (options_.on_cycle) {
      options_.on_cycle(snapshot_, plan);
    }
    const bool acted = carry_out(plan, now);
    // Reservations hold until their gang starts: the next cycle gets them back.
    snapshot_.reservations.clear();
    for (const Reservation& r : plan.reservations) {
      snapshot_.reservations.push_back({r.workload, r.nodes, r.starts_at});
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
  }
  for (const AdmittedWorkload& admitted : snapshot_.admitted) {
    trace.workloads[admitted.id.value()].running = true;  // only if the loop stopped early
  }
  return {};
}

void SimulationLoop::apply_executor_events(Timestamp now) {
  const std::vector<sim::SimEvent> events = executor_.take_due(now);
  if (events.empty()) {
    return;
  }
  for (const sim::SimEvent& event : events) {
    const WorkloadId id(event.work.value());
    LiveWorkload& live = live_[id.value()];
    TracedWorkload& traced = trace_->workloads[id.value()];
    trace_->segments.push_back({id.value(), event.started_at, event.at, live.amount});
    if (event.kind == sim::SimEventKind::kCompleted) {
      live.phase = Phase::kDone;
      traced.finished_at = event.at;
    } else {
      live.remaining = event.remaining;
      ++traced.restarts;
      make_pending(id);
    }
    live.evicted = false;
  }
  std::erase_if(snapshot_.admitted, [&](const AdmittedWorkload& a) {
    return live_[a.id.value()].phase != Phase::kRunning;
  });
}

void SimulationLoop::make_pending(WorkloadId id) {
  LiveWorkload& live = live_[id.value()];
  live.phase = Phase::kPending;
  PendingWorkload request = input_.arrivals[id.value()].request;  // original queued_at
  request.preempted_by = live.preempted_by;
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
    const SimulatedArrival& arrival = input_.arrivals[next_arrival_];
    LiveWorkload& live = live_[next_arrival_];
    live.remaining = arrival.runtime;
    make_pending(arrival.request.id);
    ++next_arrival_;
  }
  if (options_.on_progress && next_arrival_ != before) {
    options_.on_progress(static_cast<int64_t>(next_arrival_),
                         static_cast<int64_t>(input_.arrivals.size()));
  }
}

void SimulationLoop::refresh_snapshot(Timestamp now) {
  snapshot_.now = now;
  merge_tail_by_id(snapshot_.pending, pending_sorted_);
  pending_sorted_ = snapshot_.pending.size();
  // Checkpointing work is treated as checkpointed continuously: nothing is lost.
  for (AdmittedWorkload& admitted : snapshot_.admitted) {
    if (input_.arrivals[admitted.id.value()].checkpointed) {
      admitted.last_checkpoint = now;
    }
  }
}

bool SimulationLoop::carry_out(const Plan& plan, Timestamp now) {
  bool acted = false;
  for (const Eviction& eviction : plan.evictions) {
    acted = evict(eviction.workload, now) || acted;
  }
  bool immediate_stop = false;
  for (const Preemption& preemption : plan.preemptions) {
    const bool stopped = preempt(preemption, now);
    acted = stopped || acted;
    immediate_stop = immediate_stop || (stopped && preemption.grace_period.ms() <= 0);
  }
  // Victims without a grace period stop before the plan's admissions, which
  // may already use their capacity (the Plan contract).
  if (immediate_stop) apply_executor_events(now);
  for (const Admission& admission : plan.admissions) {
    acted = admit(admission, now) || acted;
  }
  if (!newly_admitted_.empty()) {
    std::erase_if(snapshot_.pending, [&](const PendingWorkload& p) {
      return live_[p.id.value()].phase != Phase::kPending;
    });
    pending_sorted_ = snapshot_.pending.size();  // erasing keeps the order
    const size_t sorted_end = snapshot_.admitted.size();
    for (AdmittedWorkload& admitted : newly_admitted_) {
      snapshot_.admitted.push_back(std::move(admitted));
    }
    newly_admitted_.clear();
    merge_tail_by_id(snapshot_.admitted, sorted_end);
  }
  return acted;
}

AdmittedWorkload* SimulationLoop::find_admitted(WorkloadId id) {
  auto it =
      std::lower_bound(snapshot_.admitted.begin(), snapshot_.admitted.end(), id,
                       [](const AdmittedWorkload& a, WorkloadId value) { return a.id < value; });
  return it != snapshot_.admitted.end() && it->id == id ? &*it : nullptr;
}

// A failed node loses its work at once; the workload is requeued when it stops.
bool SimulationLoop::evict(WorkloadId id, Timestamp now) {
  if (!id.valid() || id.value() >= live_.size()) {
    return false;
  }
  LiveWorkload& live = live_[id.value()];
  AdmittedWorkload* admitted = find_admitted(id);
  if (live.phase != Phase::kRunning || admitted == nullptr || live.evicted) {
    return false;  // already evicted (a gang spans several failed nodes)
  }
  live.evicted = true;
  admitted->terminating = true;
  ++trace_->evictions;
  executor_.stop(work_id(id), Duration(), now);
  return true;
}

bool SimulationLoop::preempt(const Preemption& preemption, Timestamp now) {
  const WorkloadId id = preemption.victim;
  if (!id.valid() || id.value() >= live_.size()) {
    return false;
  }
  AdmittedWorkload* admitted = find_admitted(id);
  if (live_[id.value()].phase != Phase::kRunning || admitted == nullptr || admitted->terminating) {
    return false;  // the scheduler must not pick a victim twice; ignore if it does
  }
  admitted->terminating = true;
  admitted->preempted_for = preemption.beneficiary;
  live_[id.value()].preempted_by = preemption.beneficiary;
  ++trace_->workloads[id.value()].preemptions;
  ++trace_->preemptions;
  executor_.stop(work_id(id), std::max(preemption.grace_period, Duration()), now);
  return true;
}

bool SimulationLoop::admit(const Admission& admission, Timestamp now) {
  const WorkloadId id = admission.workload;
  if (!id.valid() || id.value() >= live_.size() || live_[id.value()].phase != Phase::kPending) {
    return false;  // only pending workloads can be admitted
  }
  LiveWorkload& live = live_[id.value()];
  const SimulatedArrival& arrival = input_.arrivals[id.value()];
  AdmittedWorkload admitted =
      admitted_from(arrival.request, admission.flavor, admission.assignment, now);
  live.phase = Phase::kRunning;
  live.amount = admitted.usage()[input_.primary];
  TracedWorkload& traced = trace_->workloads[id.value()];
  if (!traced.first_admitted_at) {
    traced.first_admitted_at = now;
  }
  ++trace_->admissions;
  executor_.start(work_id(id), live.remaining, arrival.checkpointed, now);
  newly_admitted_.push_back(std::move(admitted));
  return true;
}

Timestamp SimulationLoop::next_event_time() const {
  Timestamp next = executor_.next_event_time();
  if (next_arrival_ < input_.arrivals.size()) {
    next = std::min(next, input_.arrivals[next_arrival_].request.queued_at);
  }
  if (next_node_event_ < input_.node_events.size()) {
    next = std::min(next, input_.node_events[next_node_event_].at);
  }
  return next;
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
