#include "service/control/admission_loop.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/explanation_text.h"
#include "service/control/admission_cycle.h"
#include "service/control/control_audit.h"
#include "service/control/endpoint_control.h"
#include "service/control/metering.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/policy_installation.h"
#include "service/control/quota_history.h"
#include "service/control/review_notices.h"
#include "service/control/space_lifecycle.h"
#include "service/control/workload_transitions.h"

namespace allot {

void AdmissionLoop::start() {
  thread_ = std::thread([this] { run(); });
}

void AdmissionLoop::stop() {
  signal_.stop();
  if (thread_.joinable()) thread_.join();
}

Duration AdmissionLoop::cycle_period() const {
  Duration period = idle_cycle_;
  ReaderLock lock(cluster_.mutex());
  if (const auto& compiled = cluster_.view().policy.compiled()) {
    period = std::min(period, compiled->cycle());
  }
  return period;
}

Duration AdmissionLoop::min_cycle_interval() const {
  ReaderLock lock(cluster_.mutex());
  const auto& compiled = cluster_.view().policy.compiled();
  return compiled ? compiled->min_cycle_interval() : Duration();
}

void AdmissionLoop::run() {
  while (true) {
    const auto started = std::chrono::steady_clock::now();
    CommitTicket made;
    const Timestamp due = work_pass(made);
    const auto worked = std::chrono::steady_clock::now() - started;
    cluster_.finish(made);
    // The loop rests before it serves the wakes that came meanwhile, together:
    // a burst into a long queue costs a cycle per rest, not a cycle per wake.
    // As long as it just worked, whatever comes: its planning takes at most
    // half of a core. Then, while only new submits came, three times as long
    // again: a cycle over 20,000 pending workloads takes about 10 ms, so such
    // a submit waits at most 40 ms more to be considered. The wait for the
    // pass's commits and the launches it carried out are not work to rest
    // after: no rest makes them fewer, and resting after a pass that started
    // hundreds of pods kept the exits of short pods unseen, their capacity
    // held, for as long again (the Kueue baseline through allotd).
    if (!signal_.rest_after_work(worked, worked * (kRestPerWork - 1))) return;
    const Duration wait =
        std::max(Duration::millis(1), std::min(due - clock_.now(), cycle_period()));
    if (!signal_.wait_for_wake(wait)) return;
  }
}

void AdmissionLoop::apply_reports(Timestamp now, WriteBatch& batch, Actions& actions) {
  const PodReports reports = actions_.take_reports();
  ServerState& state = cluster_.state();
  for (const PodEvent& exit : reports.exits) {
    if (exit.launch_error.empty()) continue;
    if (LiveWorkload* live = state.workloads.find(exit.pod.workload)) {
      note(*live, "Warning", "LaunchFailed",
           "pod " + std::to_string(exit.pod.index) + " could not start: " + exit.launch_error, now,
           batch);
    }
  }
  for (const WorkloadId workload : reports.backend_jobs) {
    refresh_backend_job(workload, state, now, batch);
  }
  for (const PodId& pod : reports.started) {
    refresh_backend_job(pod.workload, state, now, batch);
    apply_pods_started(pod.workload, 1, state, now, batch);
  }
  for (const PodEvent& exit : reports.exits) {
    refresh_backend_job(exit.pod.workload, state, now, batch);
    apply_pod_exit(exit, state, now, batch, actions);
  }
  erase_deleted_workloads(state, batch);
  state.workloads.prune_finished();
}

CommitTicket AdmissionLoop::run_cycle(Timestamp now) {
  CommitTicket made;
  for (int attempt = 0; attempt < kOptimisticPlans; ++attempt) {
    PlanInput input;
    {
      ClusterWriter writer(cluster_);
      const bool any = take_snapshot(writer, now, input);
      if (!any) {
        ChangeLock lock(cluster_, writer);
        settle_queues(nullptr, input);
      }
      made.add(writer.defer_wait());
      if (!any) return made;
    }
    // Planning reads only the snapshot (and the queues kept for it): every
    // request goes on meanwhile.
    const Plan plan = plan_with_kept_queues(input);
    if (after_planning_) after_planning_();
    ClusterWriter writer(cluster_);
    const bool applied = apply_if_current(writer, input, plan, now, /*take_new_reports=*/true);
    made.add(writer.defer_wait());
    if (applied) return made;
  }
  // Changes kept making the plans stale: this one holds the writer lock, so
  // nothing it relies on changes before it is applied.
  ClusterWriter writer(cluster_);
  PlanInput input;
  if (take_snapshot(writer, now, input)) {
    // Exits keep coming meanwhile: they wait for the next pass, or a stream
    // of them could keep this plan stale too.
    apply_if_current(writer, input, plan_with_kept_queues(input), now,
                     /*take_new_reports=*/false);
  }
  made.add(writer.defer_wait());
  return made;
}

Plan AdmissionLoop::plan_with_kept_queues(const PlanInput& input) {
  return input.scheduler->plan(input.snapshot,
                               kept_queues_.refresh(input.scheduler, input.snapshot.pending));
}

void AdmissionLoop::refresh_exceptions(ClusterWriter& writer, Timestamp now) {
  {
    ReaderLock lock(cluster_.mutex());
    if (!cluster_.view().policy.exceptions_changed_at(now)) return;
  }
  ChangeLock lock(cluster_, writer);
  ServerState& state = cluster_.state();
  Result<PolicyState> next = state.policy.with_exceptions_at(now);
  if (!next.ok()) {
    // The applied policy stays in force; the next cycle tries again.
    cluster_.logger().warn("policy exceptions not applied", {{"error", next.status().to_string()}});
    return;
  }
  for (governance::AuditEvent& event :
       exception_expiry_events(state.policy.active_exceptions(), next->active_exceptions(), now)) {
    cluster_.audit_control(std::move(event));
  }
  install_policy(state, std::move(next).value());
  // An exception that ends by its expiry (or comes due) changes its team's
  // quota line from now, as a decision does (exception_service.cc).
  std::vector<TeamQuotaInterval> quotas =
      quota_changes(state.metering.quotas, state.policy.compiled().get(), now);
  if (quotas.empty()) return;
  WriteBatch batch;
  for (const TeamQuotaInterval& q : quotas) batch.put_objects.push_back(team_quota_object(q));
  apply_quota_changes(std::move(quotas), state.metering.quotas);
  lock.queue(std::move(batch), {});
}

void AdmissionLoop::open_interval_reviews(Timestamp now, WriteBatch& batch) {
  const ServerState& state = cluster_.state();
  open_reviews_due(interval_reviews_due(state.policy.policy(), state.contracts, now), now, batch);
}

void AdmissionLoop::open_coverage_reviews(const std::vector<std::string>& signals_without_data,
                                          Timestamp now, WriteBatch& batch) {
  if (signals_without_data.empty()) return;
  const ServerState& state = cluster_.state();
  open_reviews_due(
      coverage_reviews_due(state.policy.policy(), state.contracts, signals_without_data), now,
      batch);
}

void AdmissionLoop::open_reviews_due(const std::vector<ReviewDue>& due, Timestamp now,
                                     WriteBatch& batch) {
  if (due.empty()) return;
  ServerState& state = cluster_.state();
  OpenedReviews opened = open_reviews(due, state.policy.policy(), state.contracts, now);
  put_opened_reviews(opened, batch);
  install_contract_statuses(opened.statuses, state.contracts);
  announce_reviews(std::move(opened), state, cluster_);
}

bool AdmissionLoop::take_snapshot(ClusterWriter& writer, Timestamp now, PlanInput& input) {
  std::vector<WorkloadId> orphans;
  refresh_exceptions(writer, now);  // under the writer lock: no apply installs meanwhile
  {
    // Reading only: readers go on meanwhile. The writer lock keeps every
    // other change out but submits, which only add pending work.
    ReaderLock lock(cluster_.mutex());
    input.joined = cluster_.view().settled.joined();
    if (!cluster_.view().scheduler) return false;
    input.scheduler = cluster_.view().scheduler;
    CycleInput cycle = build_snapshot(cluster_.view(), now);
    input.snapshot = std::move(cycle.snapshot);
    orphans = std::move(cycle.orphans);
  }
  if (!orphans.empty()) {
    ChangeLock lock(cluster_, writer);
    WriteBatch batch;
    Actions actions;
    evict_orphans(orphans, cluster_.state(), now, batch, actions);
    lock.queue(std::move(batch), std::move(actions));
  }
  return !input.snapshot.pending.empty() || !input.snapshot.admitted.empty();
}

bool AdmissionLoop::apply_if_current(ClusterWriter& writer, const PlanInput& input,
                                     const Plan& plan, Timestamp now, bool take_new_reports) {
  ChangeLock lock(cluster_, writer);
  ServerState& state = cluster_.state();
  WriteBatch batch;
  Actions actions;
  // Pods that exited while the plan was made: a victim among them is gone, and
  // its capacity is free (the plan is stale and made again with it), rather
  // than counted as a preemption of work that had already ended.
  if (take_new_reports) apply_reports(now, batch, actions);
  // A new policy (a new scheduler) may have renumbered teams, flavors and nodes.
  if (input.scheduler != state.scheduler || !stale_plan_reason(plan, state).empty()) {
    lock.queue(std::move(batch), std::move(actions));
    return false;
  }
  apply_plan(plan, state, now, batch, actions);
  settle_queues(&plan, input);
  if (activity_ != nullptr) record_cycle(plan, now);
  lock.queue(std::move(batch), std::move(actions));
  return true;
}

void AdmissionLoop::settle_queues(const Plan* plan, const PlanInput& input) {
  if (cluster_.state().settled.settle(plan, input.snapshot, input.joined)) {
    signal_.wake(LoopSignal::Wake::kSubmit);
  }
}

void AdmissionLoop::record_cycle(const Plan& plan, Timestamp now) {
  const ServerState& state = cluster_.state();
  auto team_of = [&state](const LiveWorkload& live) -> const Team* {
    return state.policy.policy().find_team_by_namespace(live.doc.workload.meta.namespace_name);
  };
  int64_t admitted = 0;
  for (const Admission& admission : plan.admissions) {
    const LiveWorkload* live = state.workloads.find(admission.workload);
    // Only the admissions the plan's effects carried out, timed at their first.
    if (live == nullptr || live->doc.status.admitted_at != now) continue;
    ++admitted;
    const Team* team = team_of(*live);
    if (team == nullptr || live->doc.status.first_admitted_at != now) continue;
    activity_->record_admission(team->meta.name, now - live->doc.status.created_at);
  }
  for (const Preemption& preemption : plan.preemptions) {
    const LiveWorkload* live = state.workloads.find(preemption.victim);
    const Team* team = live != nullptr ? team_of(*live) : nullptr;
    if (team == nullptr) continue;
    activity_->record_preemption(team->meta.name,
                                 std::string(preemption_reason_name(preemption.reason)));
  }
  activity_->record_cycle(clock_.now() - now, admitted);
}

std::map<WorkloadId, ActivitySample> AdmissionLoop::sample_spaces() {
  // Reading /proc is not free: at most once a kSampleEvery, however busy the loop is.
  const Timestamp now = clock_.now();
  if (now - last_sampled_ < kSampleEvery) return {};
  std::vector<WorkloadId> spaces;
  {
    ReaderLock lock(cluster_.mutex());
    spaces = watched_spaces(cluster_.view());
  }
  if (spaces.empty()) return {};
  last_sampled_ = now;
  // Reading /proc and cgroup files holds no lock.
  std::map<WorkloadId, ActivitySample> samples;
  for (const WorkloadId id : spaces) {
    if (auto sample = actions_.executor().activity(id)) samples.emplace(id, *sample);
  }
  return samples;
}

std::optional<std::vector<CpuReading>> AdmissionLoop::read_endpoint_cpu() {
  const Timestamp now = clock_.now();
  if (!autoscaler_.due(now)) return std::nullopt;
  std::vector<CpuReplica> replicas;
  {
    ReaderLock lock(cluster_.mutex());
    replicas = CpuAutoscaler::cpu_replicas(cluster_.view());
  }
  return autoscaler_.read(replicas, actions_.executor(), now);  // no lock held
}

Timestamp AdmissionLoop::run_once() {
  CommitTicket made;
  const Timestamp due = work_pass(made);
  // Stored, then carried out: every change of this pass, and those before.
  cluster_.finish(made);
  return due;
}

Timestamp AdmissionLoop::cycle_when_allowed(bool cycle_due, Timestamp now, CommitTicket& made) {
  cycle_owed_ = cycle_owed_ || cycle_due;
  if (!cycle_owed_) return Timestamp::infinite_future();
  const Duration min_interval = min_cycle_interval();
  // Planned then, with the changes that come meanwhile.
  if (now - last_cycle_ < min_interval) return last_cycle_ + min_interval;
  cycle_owed_ = false;
  last_cycle_ = now;
  made.add(run_cycle(now));
  return Timestamp::infinite_future();
}

Timestamp AdmissionLoop::work_pass(CommitTicket& made) {
  const Duration period = cycle_period();
  const std::vector<NodeHealthReport> reports = health_.check_if_due();
  const std::vector<CheckpointReport> checkpoints =
      checkpoints_ != nullptr ? checkpoints_->scan_if_due() : std::vector<CheckpointReport>();
  const std::map<WorkloadId, ActivitySample> activity = sample_spaces();
  const std::optional<std::vector<CpuReading>> cpu = read_endpoint_cpu();
  const std::optional<std::vector<BudgetReading>> budgets =
      budgets_ != nullptr ? budgets_->evaluate_if_due() : std::nullopt;
  const std::optional<std::vector<SignalReading>> signals =
      signals_ != nullptr ? signals_->sample_if_due() : std::nullopt;
  const std::vector<GpuUsageSample> gpus = actions_.executor().gpu_usage();  // no lock held
  const Timestamp now = clock_.now();
  Timestamp next_deadline;
  bool cycle_due = false;
  {
    ClusterWriter writer(cluster_);
    {
      ChangeLock lock(cluster_, writer);
      // Taken before the reports are drained: a report that comes after the
      // drain wakes the next pass.
      cycle_due = signal_.take_flags() || now - last_cycle_ >= period;
      WriteBatch batch;
      Actions actions;
      apply_reports(now, batch, actions);
      if (cpu && autoscaler_.apply(*cpu, cluster_.state(), now, batch)) cycle_due = true;
      // Endpoints' replicas follow their desired counts (endpoint_control.h).
      if (cycle_due) {
        reconcile_endpoints(
            cluster_.state(), [this] { return cluster_.allocate_id(); }, now, batch, actions);
      }
      if (health_.apply(reports, now, cluster_.state(), batch)) cycle_due = true;
      if (checkpoints_ != nullptr) checkpoints_->apply(checkpoints, now, cluster_.state(), batch);
      heartbeat_if_due(cluster_.state().metering, now, batch);
      gpu_meter_.record(gpus, batch);
      if (budgets && budgets_->apply(*budgets, cluster_.state(), now, batch)) cycle_due = true;
      open_interval_reviews(now, batch);  // before the signals: they send its notices
      if (signals_ != nullptr) {
        // Notices of coverage reviews go out with the next pass's deliveries.
        open_coverage_reviews(signals_->apply(signals, cluster_.state(), now, batch), now, batch);
      }
      next_deadline = enforce_max_runtime(cluster_.state(), now, batch, actions);
      next_deadline = std::min(
          next_deadline, suspend_idle_spaces(cluster_.state(), activity, now, batch, actions));
      lock.queue(std::move(batch), std::move(actions));
    }
    made.add(writer.defer_wait());
  }
  const Timestamp owed_cycle = cycle_when_allowed(cycle_due, now, made);
  const Timestamp next_scan =
      checkpoints_ != nullptr ? checkpoints_->next_due() : Timestamp::infinite_future();
  return std::min({next_deadline, health_.next_due(), next_scan, now + period, owed_cycle});
}

}  // namespace allot
