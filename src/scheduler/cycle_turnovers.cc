// SchedulingCycle's turnovers (docs/slurm.md *Turnover* (c)): a pending
// workload promised the capacity that a running workload of its own team
// frees when it ends by itself, so that a backend that holds jobs ready
// (Slurm: a job queued behind the running one's end) starts it at that end,
// as a site's own queued job would start, instead of after allot has seen the
// end. Only with SchedulerOptions::turnover_handovers.
//
// At the end of each cycle, each team's queue is walked in order (StrictFIFO:
// its first workload not admitted only), past the workloads admitted in this
// cycle and the beneficiaries of reclaims. A workload W of one pod may be
// promised a running workload J of its team when:
// - J was admitted in an earlier cycle and runs (its backend's job exists, so
//   a job can be queued behind it), is neither stopping nor chosen as a
//   victim, and is no other promise's; its pods are all on one node that is
//   schedulable and usable by W (reservations and drains), holding at least
//   W's pod (resources and GPUs), in a flavor W may use;
// - with J ended and W admitted, the team would not borrow (W never holds
//   more than J, so this binds only a team that borrows now);
// - no other team is owed in that flavor after this cycle (its first
//   workload not admitted in it would be within its nominal): the capacity J
//   frees is then the cycle's order to give, not a promise's;
// - no work stops in that flavor (stopping, or a victim of this cycle): while
//   a preemption is in flight the quota is the beneficiaries', and a promise
//   made then could not be admitted at J's end (its job, started by the
//   backend at that end, would be cancelled);
// - W's own promise was not refused in this cycle (keep_handovers() could not
//   admit it at its J's end).
// The promise: W's pod on J's node, on the lowest of J's GPUs it needs, once
// J has ended (`after`: J). The running workloads are offered smallest first
// (their GPUs: the first that holds W fits it best), then in the order they
// are expected to end (a declared end first, the earliest first; then the
// earliest admitted). A kept promise stands while it still meets the
// rules. A workload earlier in its team's queue without one takes a free J,
// else the J of the latest workload in the queue that holds one (a requeued
// or more important workload is not passed over); the latter's promise is
// withdrawn. A changed promise is withdrawn and made anew. Per team at most
// twice as many workloads as it has such J, plus 8, are looked at, and each
// against at most 64 J, so that a cycle's cost does not grow with a queue
// of workloads that fit none.
// keep_handovers() (cycle_handovers.cc) admits W first in the cycle that sees
// J gone, as it admits a reclaim's; one whose J stops meanwhile is withdrawn.
#include <algorithm>
#include <bit>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "scheduler/handover_placement.h"
#include "scheduler/scheduling_cycle.h"

namespace allot {
namespace {

constexpr size_t kJobsTriedPerWorkload = 64;

}  // namespace

// A running workload whose capacity may be promised.
struct SchedulingCycle::TurnoverJob {
  uint32_t admitted = 0;  // snapshot index
  OnOneNode place;
  Timestamp expected_end;
  int32_t claimed_at = -1;  // queue position of the workload whose kept promise names it
  bool used = false;        // promised in this cycle's walk
};

void SchedulingCycle::offer_turnovers() {
  if (!options_.turnover_handovers) {
    for (const Handover& h : kept_turnovers_) plan_.withdrawn_handovers.push_back(h.workload);
    return;
  }
  std::unordered_set<uint64_t> admitted_now;
  for (const Admission& a : plan_.admissions) admitted_now.insert(a.workload.value());
  std::unordered_set<uint64_t> taken = admitted_now;
  for (const Handover& h : plan_.handovers) taken.insert(h.workload.value());
  for (const uint64_t refused : refused_turnovers_) taken.insert(refused);
  std::vector<bool> stopping(static_cast<size_t>(policy_.flavor_count()), false);
  for (uint32_t i = 0; i < snapshot_.admitted.size(); ++i) {
    if (unavailable_[i]) stopping[snapshot_.admitted[i].flavor.value()] = true;
  }
  std::vector<std::vector<TurnoverJob>> jobs(static_cast<size_t>(policy_.team_count()));
  for (uint32_t i = 0; i < snapshot_.admitted.size(); ++i) {
    const AdmittedWorkload& j = snapshot_.admitted[i];
    if (unavailable_[i] || !j.running || stopping[j.flavor.value()] ||
        pending_queues_.queue(j.team).empty()) {
      continue;
    }
    const std::optional<OnOneNode> place = on_one_node(j);
    if (!place || !capacity_.schedulable(place->node)) continue;
    const Timestamp end = j.max_runtime == Duration::max() ? Timestamp::infinite_future()
                                                           : j.admitted_at + j.max_runtime;
    jobs[j.team.value()].push_back({i, *place, end});
  }
  // The kept promises by their workload's team (those of workloads admitted or taken now left out).
  std::vector<std::vector<const Handover*>> kept(static_cast<size_t>(policy_.team_count()));
  for (const Handover& h : kept_turnovers_) {
    const std::optional<uint32_t> index = pending_index_.find(h.workload);
    if (index && !h.after.empty() && !taken.contains(h.workload.value())) {
      kept[snapshot_.pending[*index].team.value()].push_back(&h);
    }
  }
  owed_team_.assign(static_cast<size_t>(policy_.flavor_count()), -3);
  const size_t first_new = plan_.handovers.size();
  for (int32_t t = 0; t < policy_.team_count(); ++t) {
    std::vector<TurnoverJob>& team_jobs = jobs[static_cast<size_t>(t)];
    if (team_jobs.empty()) continue;
    std::ranges::sort(team_jobs, [&](const TurnoverJob& a, const TurnoverJob& b) {
      const AdmittedWorkload& x = snapshot_.admitted[a.admitted];
      const AdmittedWorkload& y = snapshot_.admitted[b.admitted];
      const int gpus_a = std::popcount(a.place.gpus);
      const int gpus_b = std::popcount(b.place.gpus);
      return std::tie(gpus_a, a.expected_end, x.admitted_at, x.id) <
             std::tie(gpus_b, b.expected_end, y.admitted_at, y.id);
    });
    promise_turnovers(TeamIndex(t), team_jobs, kept[static_cast<size_t>(t)], admitted_now, taken);
  }
  std::unordered_map<uint64_t, const Handover*> made;
  for (size_t i = first_new; i < plan_.handovers.size(); ++i) {
    made.emplace(plan_.handovers[i].workload.value(), &plan_.handovers[i]);
  }
  for (const Handover& h : kept_turnovers_) {
    const auto found = made.find(h.workload.value());
    if (found == made.end() || !(*found->second == h))
      plan_.withdrawn_handovers.push_back(h.workload);
  }
}

void SchedulingCycle::promise_turnovers(TeamIndex team, std::vector<TurnoverJob>& jobs,
                                        const std::vector<const Handover*>& team_kept,
                                        const std::unordered_set<uint64_t>& admitted_now,
                                        const std::unordered_set<uint64_t>& taken) {
  std::unordered_map<uint64_t, size_t> job_of;  // running workload id -> index in jobs
  for (size_t k = 0; k < jobs.size(); ++k) {
    job_of.emplace(snapshot_.admitted[jobs[k].admitted].id.value(), k);
  }
  std::unordered_map<uint64_t, size_t> kept;  // workload id -> the job its kept promise names
  for (const Handover* h : team_kept) {
    const auto job = job_of.find(h->after.front().value());
    if (job == job_of.end()) continue;
    jobs[job->second].claimed_at = pending_queues_.position(*pending_index_.find(h->workload));
    kept.emplace(h->workload.value(), job->second);
  }
  // Jobs claimed by a kept promise, the latest claimer first: the ones an
  // earlier workload without a promise takes.
  std::vector<size_t> claimed;
  for (size_t k = 0; k < jobs.size(); ++k) {
    if (jobs[k].claimed_at >= 0) claimed.push_back(k);
  }
  std::ranges::sort(claimed,
                    [&](size_t a, size_t b) { return jobs[a].claimed_at > jobs[b].claimed_at; });
  const bool strict = policy_.team(team).queueing == QueueingStrategy::kStrictFifo;
  const size_t limit = 2 * jobs.size() + 8;
  size_t used = 0;
  size_t looked = 0;
  size_t first_unused = 0;
  for (const uint32_t index : pending_queues_.queue(team)) {
    if (used == jobs.size() || looked == limit) break;
    const PendingWorkload& w = snapshot_.pending[index];
    if (admitted_now.contains(w.id.value())) continue;
    ++looked;
    const bool one_pod = w.pod_sets.size() == 1 && w.pod_sets[0].count == 1;
    if (one_pod && !taken.contains(w.id.value())) {
      const int32_t position = pending_queues_.position(index);
      std::optional<Handover> promise;
      size_t chosen = jobs.size();
      const auto own = kept.find(w.id.value());
      if (own != kept.end() && !jobs[own->second].used) {
        chosen = own->second;
        promise = turnover_promise(w, jobs[chosen], admitted_now);
      }
      // Else a free job (never claimed, or its claimer passed without a promise).
      while (first_unused < jobs.size() && jobs[first_unused].used) ++first_unused;
      size_t tried = 0;
      for (size_t k = first_unused; !promise && k < jobs.size() && tried < kJobsTriedPerWorkload;
           ++k) {
        if (jobs[k].used || jobs[k].claimed_at >= position) continue;
        ++tried;
        chosen = k;
        promise = turnover_promise(w, jobs[k], admitted_now);
      }
      // Else the job of the latest workload in the queue that holds one.
      tried = 0;
      for (size_t c = 0; !promise && c < claimed.size() && tried < kJobsTriedPerWorkload; ++c) {
        const size_t k = claimed[c];
        if (jobs[k].used || jobs[k].claimed_at <= position) continue;
        ++tried;
        chosen = k;
        promise = turnover_promise(w, jobs[k], admitted_now);
      }
      if (promise) {
        jobs[chosen].used = true;
        ++used;
        plan_.handovers.push_back(std::move(*promise));
      }
    }
    if (strict) break;
  }
}

std::optional<Handover> SchedulingCycle::turnover_promise(
    const PendingWorkload& w, const TurnoverJob& job,
    const std::unordered_set<uint64_t>& admitted_now) {
  const AdmittedWorkload& running = snapshot_.admitted[job.admitted];
  const std::span<const FlavorIndex> flavors = usable_flavors(w);
  if (std::ranges::find(flavors, running.flavor) == flavors.end()) return std::nullopt;
  std::optional<PodSetAssignment> pod = promised_pod(w.pod_sets[0].per_pod, job.place);
  if (!pod || !capacity_.usable_by(job.place.node, w.id, finish_by(w))) return std::nullopt;
  if (quota_.borrowing(w.team, running.flavor) &&
      !swap_within_nominal(w.team, running.flavor, running.usage(), w.pod_sets[0].per_pod)) {
    return std::nullopt;
  }
  if (other_team_owed(running.flavor, w.team, admitted_now)) return std::nullopt;
  return Handover{w.id, {running.id}, running.flavor, {std::move(*pod)}, HandoverKind::kTurnover};
}

bool SchedulingCycle::swap_within_nominal(TeamIndex team, FlavorIndex flavor,
                                          const ResourceVector& ends,
                                          const ResourceVector& starts) {
  const uint64_t mark = quota_.usage_mark();
  quota_.remove_usage(team, flavor, ends);
  const bool within = !quota_.would_borrow(team, flavor, starts);
  quota_.add_usage(team, flavor, ends);
  quota_.back_to(mark);
  return within;
}

bool SchedulingCycle::other_team_owed(FlavorIndex flavor, TeamIndex team,
                                      const std::unordered_set<uint64_t>& admitted_now) {
  int32_t& owed = owed_team_[flavor.value()];
  if (owed == -3) {
    owed = -1;
    for (int32_t t = 0; t < policy_.team_count() && owed != -2; ++t) {
      for (const uint32_t index : pending_queues_.queue(TeamIndex(t))) {
        const PendingWorkload& w = snapshot_.pending[index];
        if (admitted_now.contains(w.id.value())) continue;
        const std::span<const FlavorIndex> flavors = usable_flavors(w);
        if (std::ranges::find(flavors, flavor) != flavors.end() &&
            !quota_.would_borrow(TeamIndex(t), flavor, facts_[index].total)) {
          owed = owed == -1 ? t : -2;
        }
        break;  // the team's first workload not admitted decides
      }
    }
  }
  return owed == -2 || (owed >= 0 && owed != static_cast<int32_t>(team.value()));
}

}  // namespace allot
