#include "scheduler/scheduling_cycle.h"

#include <algorithm>
#include <unordered_map>

#include "scheduler/endpoint_replicas.h"
#include "scheduler/gang_placer.h"
#include "scheduler/reservation_planner.h"

namespace allot {
namespace {

ResourceVector total_of(const PendingWorkload& w, const std::vector<int32_t>& counts) {
  ResourceVector total;
  for (size_t i = 0; i < w.pod_sets.size(); ++i) total += w.pod_sets[i].per_pod * counts[i];
  return total;
}

bool on_failed_node(const AdmittedWorkload& w, const std::vector<bool>& healthy, NodeIndex* node) {
  for (const PodSetAssignment& set : w.assignment) {
    for (const PodPlacement& pod : set.pods) {
      if (!healthy[pod.node.value()]) {
        *node = pod.node;
        return true;
      }
    }
  }
  return false;
}

// Sums what pods hold per node; two pods claiming one GPU make the node
// inconsistent, and CapacityIndex::hold() then takes it out of scheduling.
class HeldOnNodes {
 public:
  explicit HeldOnNodes(int32_t nodes) : amount_(nodes), gpus_(nodes, 0), clash_(nodes, false) {}
  void add(NodeIndex node, const ResourceVector& amount, uint64_t gpus) {
    const auto n = node.value();
    amount_[n] += amount;
    clash_[n] = clash_[n] || (gpus_[n] & gpus) != 0;
    gpus_[n] |= gpus;
  }
  void apply_to(CapacityIndex& capacity) const {
    for (uint32_t n = 0; n < amount_.size(); ++n) {
      if (amount_[n].is_zero() && gpus_[n] == 0) continue;
      // A clash is reported as a request for every GPU, which cannot fit.
      capacity.hold(NodeIndex(n), amount_[n], clash_[n] ? ~uint64_t{0} : gpus_[n]);
    }
  }

 private:
  std::vector<ResourceVector> amount_;
  std::vector<uint64_t> gpus_;
  std::vector<bool> clash_;
};

}  // namespace

SchedulingCycle::SchedulingCycle(const CompiledPolicy& policy, const Topology& topology,
                                 const SchedulerOptions& options, const Snapshot& snapshot,
                                 const PendingQueues* kept)
    : policy_(policy),
      options_(options),
      snapshot_(snapshot),
      quota_(policy),
      burst_usage_(policy.team_count(), policy.flavor_count()),
      capacity_(policy, topology, snapshot.nodes),
      tenancy_(policy, snapshot.admitted),
      pending_queues_(kept != nullptr ? *kept : own_queues_.emplace(policy, snapshot.pending)),
      queues_(pending_queues_, policy.team_count()),
      facts_(pending_queues_.facts()),
      pending_index_(snapshot.pending),
      unavailable_(snapshot.admitted.size(), false),
      team_preempted_(policy.team_count(), false),
      team_blocked_(policy.team_count(), false),
      reservations_left_(policy.flavor_count(), options.max_reservations_per_flavor),
      failed_reservations_(policy.flavor_count()),
      reserved_quota_(policy.flavor_count()),
      unplaceable_(policy.flavor_count()),
      reserved_priority_(policy.node_count(), 0),
      reservation_priorities_(policy.flavor_count()),
      preemption_failures_(policy.team_count()),
      flavor_capacity_(policy.flavor_count()),
      flavor_node_gpus_(policy.flavor_count(), 0),
      admission_memo_(policy.team_count()) {
  // Every pending workload gets one explanation at most: no regrowth.
  plan_.explanations.reserve(snapshot.pending.size());
  explained_index_.reserve(snapshot.pending.size());
  for (const CompiledNode& node : policy.nodes()) {
    flavor_capacity_[node.flavor.value()] += node.node.capacity;
    int64_t& gpus = flavor_node_gpus_[node.flavor.value()];
    gpus = std::max(gpus, node.node.capacity.gpu());
  }
}

std::vector<int32_t> SchedulingCycle::full_counts(const PendingWorkload& w) {
  std::vector<int32_t> counts;
  counts.reserve(w.pod_sets.size());
  for (const PodSetRequest& set : w.pod_sets) counts.push_back(set.count);
  return counts;
}

std::span<const FlavorIndex> SchedulingCycle::usable_flavors(const PendingWorkload& w) const {
  const PendingFacts& facts = facts_[static_cast<size_t>(&w - snapshot_.pending.data())];
  if (!facts.usable) return {};
  if (facts.pinned.valid()) return {&facts.pinned, 1};
  return policy_.team(w.team).flavor_order;
}

Timestamp SchedulingCycle::finish_by(const PendingWorkload& w) const {
  return w.max_runtime == Duration::max() ? Timestamp::infinite_future()
                                          : snapshot_.now + w.max_runtime;
}

ReleaseTimeline& SchedulingCycle::timeline() {
  if (!timeline_) {
    timeline_.emplace(snapshot_.admitted, policy_.flavor_count(), policy_.node_count(),
                      snapshot_.now);
    // Work admitted earlier in this cycle releases capacity too.
    for (const Admission& a : plan_.admissions) {
      const PendingWorkload& w = snapshot_.pending[*pending_index_.find(a.workload)];
      timeline_->add(finish_by(w), a.flavor, w.pod_sets, a.assignment);
    }
  }
  return *timeline_;
}

void SchedulingCycle::evict_and_account() {
  std::vector<bool> healthy(policy_.node_count());
  bool any_failed = false;
  for (int32_t n = 0; n < policy_.node_count(); ++n) {
    healthy[n] = policy_.node_listed_healthy(NodeIndex(n)) &&
                 (snapshot_.nodes.empty() || snapshot_.nodes[n].healthy);
    any_failed = any_failed || !healthy[n];
  }
  // What admitted work holds is summed per team and flavor, and per node,
  // then applied once each: far fewer updates than one per workload and pod.
  const int32_t flavors = policy_.flavor_count();
  std::vector<ResourceVector> team_usage(static_cast<size_t>(policy_.team_count()) * flavors);
  HeldOnNodes held(policy_.node_count());
  for (uint32_t i = 0; i < snapshot_.admitted.size(); ++i) {
    const AdmittedWorkload& w = snapshot_.admitted[i];
    NodeIndex failed;
    if (any_failed && !w.terminating && on_failed_node(w, healthy, &failed)) {
      // Its pods are gone with the node: it is requeued at its original
      // position. Its quota and its other nodes stay held for this cycle, so
      // that nothing queued behind it takes its place before it is back.
      plan_.evictions.push_back({w.id, failed});
      unavailable_[i] = true;
    }
    team_usage[static_cast<size_t>(w.team.value()) * flavors + w.flavor.value()] += w.usage();
    if (w.replica_role == ReplicaRole::kBurst) burst_usage_.add(w.team, w.flavor, w.usage());
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods) {
        held.add(pod.node, w.pod_sets[s].per_pod, pod.gpu_mask);
      }
    }
    if (w.terminating) note_terminating(i);
  }
  for (int32_t t = 0; t < policy_.team_count(); ++t) {
    for (int32_t f = 0; f < flavors; ++f) {
      const ResourceVector& usage = team_usage[static_cast<size_t>(t) * flavors + f];
      if (!usage.is_zero()) quota_.add_usage(TeamIndex(t), FlavorIndex(f), usage);
    }
  }
  held.apply_to(capacity_);
}

// A stopping victim keeps its capacity; its beneficiary waits for it.
void SchedulingCycle::note_terminating(uint32_t admitted_index) {
  const AdmittedWorkload& w = snapshot_.admitted[admitted_index];
  unavailable_[admitted_index] = true;
  if (!w.preempted_for.valid()) return;
  const std::optional<uint32_t> beneficiary = pending_index_.find(w.preempted_for);
  if (!beneficiary) return;
  const Duration grace = policy_.priority_class(w.priority_class).grace_period;
  if (victims_stop_by_.empty()) {
    victims_stop_by_.assign(snapshot_.pending.size(), Timestamp::infinite_future());
  }
  Timestamp& stop_by = victims_stop_by_[*beneficiary];
  const Timestamp candidate = snapshot_.now + grace;
  stop_by = stop_by == Timestamp::infinite_future() ? candidate : std::max(stop_by, candidate);
  inflight_.add_victim(*beneficiary, w);
}

// Capacity on its way to a beneficiary is nobody else's meanwhile: what its
// stopping victims do not hold of its need is held for it in quota.
void SchedulingCycle::hold_for_beneficiaries() {
  for (const auto& [index, beneficiary] : inflight_.all()) {
    const ResourceVector& held = inflight_.hold(index, facts_[index].total);
    if (held.is_zero()) continue;
    const TeamIndex team = snapshot_.pending[index].team;
    quota_.add_usage(team, beneficiary.flavor, held);
    if (held_by_team_.empty()) held_by_team_.resize(policy_.team_count());
    held_by_team_[team.value()].push_back(index);
  }
}

void SchedulingCycle::set_held_behind(const PendingWorkload& w, bool held) {
  if (held_by_team_.empty()) return;
  for (const uint32_t index : held_by_team_[w.team.value()]) {
    if (queue_before(w, snapshot_.pending[index])) set_held(index, held);
  }
}

void SchedulingCycle::refresh_order(TeamIndex team) {
  const bool any_held = !held_by_team_.empty() && !held_by_team_[team.value()].empty();
  if (!any_held || !queues_.has_head(team)) {
    order_->refresh(team);
    return;
  }
  const PendingWorkload& head = snapshot_.pending[queues_.head(team)];
  set_held_behind(head, false);
  order_->refresh(team);
  set_held_behind(head, true);
}

void SchedulingCycle::set_held(uint32_t pending_index, bool held) {
  // Only a workload whose victims are stopping has a stop time (note_terminating):
  // a dense check spares most processed workloads the in-flight hash lookup.
  if (victims_stop_by(pending_index) == Timestamp::infinite_future() ||
      !inflight_.waiting(pending_index)) {
    return;
  }
  const InflightPreemptions::Beneficiary& b = inflight_.at(pending_index);
  if (b.held.is_zero()) return;
  const TeamIndex team = snapshot_.pending[pending_index].team;
  if (held) {
    quota_.add_usage(team, b.flavor, b.held);
  } else {
    quota_.remove_usage(team, b.flavor, b.held);
  }
}

Plan SchedulingCycle::run() {
  evict_and_account();
  hold_for_beneficiaries();
  apply_held_drains();
  keep_handovers();
  apply_held_reservations();
  order_ = policy_.fair_sharing() ? make_fair_share_order(quota_, queues_, facts_)
                                  : make_classic_order(quota_, queues_, facts_);
  // The order judged every head with every hold in place; a team's own holds
  // behind its head do not count for it.
  for (size_t t = 0; t < held_by_team_.size(); ++t) {
    if (!held_by_team_[t].empty()) refresh_order(TeamIndex(static_cast<uint32_t>(t)));
  }
  for (TeamIndex team = order_->next(); team.valid(); team = order_->next()) {
    const uint32_t index = queues_.head(team);
    process(index);
    if (team_blocked_[team.value()]) {
      explain_blocked_tail(team, index);
      queues_.close(team);
    } else {
      queues_.advance(team);
    }
    refresh_order(team);
  }
  settle_handovers();
  offer_turnovers();
  finish_explanations();
  return std::move(plan_);
}

void SchedulingCycle::process(uint32_t pending_index) {
  const PendingWorkload& w = snapshot_.pending[pending_index];
  if (!admitted_by_promise_.empty() && admitted_by_promise_.contains(w.id.value())) return;
  Failure failure;
  // What was held for it is its own to admit with; admitted (in any flavor),
  // it holds what it uses instead.
  set_held(pending_index, false);
  // Nor does what is held for its team's beneficiaries queued after it.
  set_held_behind(w, false);
  bool waits = false;
  if (!try_admit_remembered(w, pending_index, &failure)) {
    set_held(pending_index, true);
    waits = try_preempt_or_explain(w, pending_index, &failure);
  }
  set_held_behind(w, true);
  if (waits && policy_.team(w.team).queueing == QueueingStrategy::kStrictFifo) {
    team_blocked_[w.team.value()] = true;
  }
}

// After a failed admission attempt: preempts, or explains why w waits.
// Returns false when w was admitted after all (its victims stopped at once).
bool SchedulingCycle::try_preempt_or_explain(const PendingWorkload& w, uint32_t pending_index,
                                             Failure* failure_out) {
  Failure& failure = *failure_out;
  PreemptionVerdict verdict = PreemptionVerdict::kNotNeeded;
  if (failure.reason == PendingReason::kQuotaExhausted ||
      failure.reason == PendingReason::kNoFittingNodes) {
    if (victims_stop_by(pending_index) != Timestamp::infinite_future()) {
      verdict = PreemptionVerdict::kWaitingForVictims;
      failure.reason = PendingReason::kWaitingForPreemption;
    } else {
      bool admitted = false;
      verdict = try_preempt(w, &admitted);
      if (admitted) return false;
      if (verdict != PreemptionVerdict::kPreempting && verdict != PreemptionVerdict::kDeferred &&
          try_consolidate(w, &admitted)) {
        if (admitted) return false;
        verdict = PreemptionVerdict::kPreempting;
      }
      if (verdict == PreemptionVerdict::kPreempting) {
        failure.reason = PendingReason::kWaitingForPreemption;
      }
    }
  }
  explain(w, pending_index, failure, verdict);
  return true;
}

// A workload holding a reservation reads its own nodes and quota, and one
// whose victims are stopping has its held quota taken out meanwhile: neither
// attempt is remembered or answered from memory.
bool SchedulingCycle::try_admit_remembered(const PendingWorkload& w, uint32_t pending_index,
                                           Failure* failure) {
  // Nor one of a team with beneficiaries waiting: what of their holds it sees
  // depends on its place in the queue (set_held_behind).
  const bool memo = options_.remember_admission_failures &&
                    victims_stop_by(pending_index) == Timestamp::infinite_future() &&
                    (held_by_team_.empty() || held_by_team_[w.team.value()].empty()) &&
                    (holds_reservation_.empty() || !holds_reservation_.contains(w.id.value()));
  const PendingFacts& facts = facts_[pending_index];
  if (memo) {
    if (const Failure* known = admission_memo_.find(w, facts, state_epoch_)) {
      *failure = *known;
      ++admission_memo_answers_;
      return false;
    }
  }
  if (try_admit(w, failure)) return true;
  if (memo) admission_memo_.remember(w, facts, state_epoch_, *failure);
  return false;
}

bool SchedulingCycle::try_admit(const PendingWorkload& w, Failure* failure) {
  const std::span<const FlavorIndex> flavors = usable_flavors(w);
  if (flavors.empty()) {
    failure->reason = PendingReason::kNoUsableFlavor;
    return false;
  }
  bool exceeds_everywhere = true;
  std::optional<Failure> first_quota_failure;
  std::optional<Failure> first_node_failure;
  for (FlavorIndex f : flavors) {
    Failure attempt;
    if (try_flavor(w, f, &attempt)) return true;
    if (!facts_[&w - snapshot_.pending.data()].total.fits_in(flavor_capacity_[f.value()])) continue;
    exceeds_everywhere = false;
    // Quota allows it now, but nodes (or a reserved gang) do not.
    const bool quota_allows = attempt.reason == PendingReason::kNoFittingNodes ||
                              attempt.reason == PendingReason::kHeldForReservation;
    if (quota_allows && !first_node_failure) {
      first_node_failure = attempt;
    } else if (attempt.reason == PendingReason::kQuotaExhausted && !first_quota_failure) {
      first_quota_failure = attempt;
    }
  }
  if (exceeds_everywhere) {
    failure->reason = PendingReason::kExceedsCapacity;
    failure->flavor = flavors.front();
  } else {
    // A flavor whose quota allows it says more about the wait than one whose doesn't.
    *failure = first_node_failure ? *first_node_failure : *first_quota_failure;
  }
  return false;
}

bool SchedulingCycle::try_flavor(const PendingWorkload& w, FlavorIndex flavor, Failure* failure) {
  failure->flavor = flavor;
  const ResourceVector& total = facts_[static_cast<size_t>(&w - snapshot_.pending.data())].total;
  // One walk of the quota tree says both whether the full size fits and, if
  // not, which limit binds.
  failure->shortfall = quota_.shortfall(w.team, flavor, total);
  // A guaranteed endpoint replica never borrows (endpoint_replicas.h).
  if (w.guaranteed() && failure->shortfall.fr == -1) {
    failure->shortfall =
        nominal_shortfall(quota_, w.team, flavor, total, burst_usage_.of(w.team, flavor));
  }
  const bool quota_fits = failure->shortfall.fr == -1;
  if (w.guaranteed() && !quota_fits) {
    failure->reason = PendingReason::kQuotaExhausted;
    return false;
  }
  std::vector<PodSetAssignment> placement;
  held_for_reservation_ = false;
  std::optional<std::vector<int32_t>> counts = fit_counts(w, flavor, quota_fits, &placement);
  if (counts) {
    admit(w, flavor, *counts, std::move(placement));
    return true;
  }
  failure->reason = quota_fits ? PendingReason::kNoFittingNodes : PendingReason::kQuotaExhausted;
  if (quota_fits && held_for_reservation_) failure->reason = PendingReason::kHeldForReservation;
  return false;
}

bool SchedulingCycle::fits_with(const PendingWorkload& w, FlavorIndex flavor,
                                const std::vector<int32_t>& counts,
                                std::vector<PodSetAssignment>* placement, bool quota_known_to_fit) {
  if (!quota_known_to_fit && !quota_.fits(w.team, flavor, total_of(w, counts))) return false;
  if (known_not_to_place(w, flavor, counts[0])) return false;
  const ResourceVector total = total_of(w, counts);
  // Work within nominal is packed with such work while some work borrows (node_tenancy.h).
  const bool anchored = tenancy_.any_borrowing() && !quota_.would_borrow(w.team, flavor, total);
  GangPlacer placer(capacity_, &tenancy_);
  auto placed = placer.place({w.id, flavor, w.pod_sets, counts, finish_by(w), anchored});
  if (!placed) {
    remember_unplaceable(w, flavor, counts);
    return false;
  }
  // Only work that could start now is checked against reserved gangs' quota.
  if (!reserved_quota_.empty() && !reservations_allow(w, flavor, total)) {
    held_for_reservation_ = true;
    return false;
  }
  *placement = std::move(*placed);
  return true;
}

// Within a cycle free capacity only shrinks (admissions take it; victims keep
// theirs until they stop), so a single-pod-set request that found no nodes
// still finds none when it is at least as large, as numerous and as long.
bool SchedulingCycle::known_not_to_place(const PendingWorkload& w, FlavorIndex flavor,
                                         int32_t pods) const {
  // A workload holding a reservation may use nodes that others may not.
  if (w.pod_sets.size() != 1 || holds_reservation_.contains(w.id.value())) return false;
  const ResourceVector& per_pod = w.pod_sets[0].per_pod;
  const Timestamp end = finish_by(w);
  for (const UnplaceableShape& shape : unplaceable_[flavor.value()]) {
    if (shape.per_pod.fits_in(per_pod) && shape.pods <= pods && shape.finish_by <= end) {
      return true;
    }
  }
  return false;
}

void SchedulingCycle::remember_unplaceable(const PendingWorkload& w, FlavorIndex flavor,
                                           const std::vector<int32_t>& counts) {
  constexpr size_t kMaxShapesPerFlavor = 64;
  auto& shapes = unplaceable_[flavor.value()];
  if (w.pod_sets.size() != 1 || shapes.size() >= kMaxShapesPerFlavor ||
      holds_reservation_.contains(w.id.value())) {
    return;
  }
  const UnplaceableShape shape{w.pod_sets[0].per_pod, counts[0], finish_by(w)};
  // Keep only the smallest failures: a shape that the new one dominates says nothing more.
  std::erase_if(shapes, [&](const UnplaceableShape& old) {
    return shape.per_pod.fits_in(old.per_pod) && shape.pods <= old.pods &&
           shape.finish_by <= old.finish_by;
  });
  shapes.push_back(shape);
}

std::optional<std::vector<int32_t>> SchedulingCycle::fit_counts(
    const PendingWorkload& w, FlavorIndex flavor, bool full_size_fits_quota,
    std::vector<PodSetAssignment>* placement) {
  int32_t max_shrink = 0;
  for (const PodSetRequest& set : w.pod_sets) {
    max_shrink = std::max(max_shrink, set.count - set.min_count);
  }
  if (!full_size_fits_quota && max_shrink == 0) return std::nullopt;
  if (full_size_fits_quota && !known_not_to_place(w, flavor, w.pod_sets[0].count)) {
    std::vector<int32_t> counts = full_counts(w);
    if (fits_with(w, flavor, counts, placement, /*quota_known_to_fit=*/true)) return counts;
  }
  // Partial admission: shrink every reducible pod set by the same number of
  // pods (never below its minCount); find the smallest shrink that fits.
  if (max_shrink == 0) return std::nullopt;
  auto shrunk = [&](int32_t by) {
    std::vector<int32_t> out;
    for (const PodSetRequest& set : w.pod_sets)
      out.push_back(std::max(set.min_count, set.count - by));
    return out;
  };
  std::vector<PodSetAssignment> smallest;
  if (!fits_with(w, flavor, shrunk(max_shrink), &smallest)) return std::nullopt;
  int32_t lo = 1;  // known not to fit: 0
  int32_t hi = max_shrink;
  *placement = std::move(smallest);
  while (lo < hi) {
    const int32_t mid = lo + (hi - lo) / 2;
    std::vector<PodSetAssignment> attempt;
    if (fits_with(w, flavor, shrunk(mid), &attempt)) {
      hi = mid;
      *placement = std::move(attempt);
    } else {
      lo = mid + 1;
    }
  }
  return shrunk(hi);
}

void SchedulingCycle::admit(const PendingWorkload& w, FlavorIndex flavor,
                            const std::vector<int32_t>& counts,
                            std::vector<PodSetAssignment> placement) {
  state_changed();
  capacity_changed(flavor);
  const ResourceVector total = total_of(w, counts);
  Admission admission;
  admission.workload = w.id;
  admission.flavor = flavor;
  admission.usage = total;
  admission.borrowing = quota_.would_borrow(w.team, flavor, total);
  admission.borrowed = quota_.borrowed_part(w.team, flavor, total);
  for (size_t i = 0; i < counts.size(); ++i) {
    admission.partial = admission.partial || counts[i] != w.pod_sets[i].count;
  }
  for (const PodSetAssignment& set : placement) {
    for (const PodPlacement& pod : set.pods) {
      if (capacity_.reserved(pod.node) && capacity_.reserved_for(pod.node) != w.id) {
        admission.backfill = true;
      }
    }
  }
  GangPlacer(capacity_).commit(w.pod_sets, placement);
  tenancy_.admitted(w.pod_sets, placement, admission.borrowing);
  quota_.add_usage(w.team, flavor, total);
  if (w.replica_role == ReplicaRole::kBurst) burst_usage_.add(w.team, flavor, total);
  note_admission_for_reservations(w, flavor, total);
  admission.assignment = std::move(placement);
  if (timeline_) timeline_->add(finish_by(w), flavor, w.pod_sets, admission.assignment);
  plan_.admissions.push_back(std::move(admission));
}

}  // namespace allot
