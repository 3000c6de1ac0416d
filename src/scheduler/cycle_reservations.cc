// The reservation half of SchedulingCycle: the previous plan's reservations
// held again, new ones for blocked gangs (nodes and quota), and the check
// that keeps other work off what a reserved gang needs at its start.
#include <algorithm>
#include <set>

#include "scheduler/reservation_planner.h"
#include "scheduler/scheduling_cycle.h"

namespace allot {
namespace {

bool release_order(const QuotaRelease& a, const QuotaRelease& b) { return a.at < b.at; }

int32_t pod_count(const PendingWorkload& w) {
  int32_t pods = 0;
  for (const PodSetRequest& set : w.pod_sets) pods += set.count;
  return pods;
}

}  // namespace

// Held reservations are marked before any admission of the cycle, so that
// work taken ahead of the gang backfills only what ends before its start.
void SchedulingCycle::apply_held_reservations() {
  for (const HeldReservation& r : snapshot_.reservations) {
    const std::optional<uint32_t> index = pending_index_.find(r.workload);
    if (!index) continue;
    if (r.starts_at == Timestamp::infinite_future()) continue;  // a drain: apply_held_drains()
    holds_reservation_.insert(r.workload.value());
    const PendingWorkload& w = snapshot_.pending[*index];
    FlavorIndex flavor;
    for (NodeIndex node : r.nodes) {
      if (node.valid() && node.value() < static_cast<uint32_t>(policy_.node_count())) {
        reserve_node(node, w, r.starts_at);
        flavor = policy_.node(node).flavor;
      }
    }
    if (!flavor.valid() || pod_count(w) <= 1) continue;
    add_reserved_quota(ReservedQuota(quota_, quota_releases(flavor), w.id, w.team, flavor,
                                     facts_[*index].total, r.starts_at, w.max_runtime,
                                     policy_.cycle()));
  }
}

void SchedulingCycle::reserve_node(NodeIndex node, const PendingWorkload& gang, Timestamp from) {
  capacity_.reserve(node, gang.id, from);
  reserved_priority_[node.value()] = gang.priority;
}

void SchedulingCycle::add_reserved_quota(ReservedQuota reserved) {
  state_changed();
  reserved_quota_.add(std::move(reserved));
}

// What admitted work (and this cycle's admissions) gives back in `flavor`,
// by its declared end; stopping work by the end of its grace period. Built
// once per flavor and cycle; admissions are added as they happen (victims
// chosen later still count as running until their end: a later start, never
// an earlier one).
const std::vector<QuotaRelease>& SchedulingCycle::quota_releases(FlavorIndex flavor) {
  if (quota_releases_.empty()) quota_releases_.resize(policy_.flavor_count());
  std::optional<std::vector<QuotaRelease>>& cached = quota_releases_[flavor.value()];
  if (cached) return *cached;
  std::vector<QuotaRelease>& releases = cached.emplace();
  for (uint32_t i = 0; i < snapshot_.admitted.size(); ++i) {
    const AdmittedWorkload& w = snapshot_.admitted[i];
    if (w.flavor != flavor) continue;
    Timestamp end = w.max_runtime == Duration::max()
                        ? Timestamp::infinite_future()
                        : std::max(w.admitted_at + w.max_runtime, snapshot_.now);
    if (unavailable_[i]) {
      end = std::min(end, snapshot_.now + policy_.priority_class(w.priority_class).grace_period);
    }
    releases.push_back({end, w.team, w.usage()});
  }
  for (const Admission& a : plan_.admissions) {
    if (a.flavor != flavor) continue;
    const PendingWorkload& w = snapshot_.pending[*pending_index_.find(a.workload)];
    releases.push_back({finish_by(w), w.team, a.usage});
  }
  std::stable_sort(releases.begin(), releases.end(), release_order);
  releases_version_.resize(policy_.flavor_count(), 0);
  ++releases_version_[flavor.value()];
  return releases;
}

QuotaTree SchedulingCycle::released_at(FlavorIndex flavor, std::span<const QuotaRelease> releases,
                                       Timestamp at) {
  if (!options_.reuse_released_quota) return released_quota_at(quota_, releases, flavor, at);
  if (released_quota_.empty()) {
    for (int32_t f = 0; f < policy_.flavor_count(); ++f) {
      released_quota_.emplace_back(FlavorIndex(static_cast<uint16_t>(f)));
    }
  }
  return released_quota_[flavor.value()].at(quota_, releases, releases_version_[flavor.value()],
                                            at);
}

int64_t SchedulingCycle::released_quota_reused() const {
  int64_t reused = 0;
  for (const ReleasedQuota& r : released_quota_) reused += r.reused();
  return reused;
}

bool SchedulingCycle::reservations_allow(const PendingWorkload& w, FlavorIndex flavor,
                                         const ResourceVector& total) {
  const Timestamp end = finish_by(w);
  const bool borrows = quota_.would_borrow(w.team, flavor, total);
  return reserved_quota_.allows(w.id, w.team, flavor, total, end, borrows);
}

void SchedulingCycle::note_admission_for_reservations(const PendingWorkload& w, FlavorIndex flavor,
                                                      const ResourceVector& total) {
  if (!quota_releases_.empty() && quota_releases_[flavor.value()]) {
    std::vector<QuotaRelease>& releases = *quota_releases_[flavor.value()];
    const QuotaRelease release{finish_by(w), w.team, total};
    releases.insert(std::upper_bound(releases.begin(), releases.end(), release, release_order),
                    release);
    ++releases_version_[flavor.value()];
  }
  if (reserved_quota_.empty()) return;
  reserved_quota_.erase(w.id);
  reserved_quota_.admitted(w.id, w.team, flavor, total, finish_by(w));
}

// A gang's own reservation is given up before it is planned again, and a
// less important gang's reservation gives way to it.
// Only nodes of the gang's reservations (held from the last plan, or made in
// this cycle) can be reserved for it, so only those are looked at.
void SchedulingCycle::drop_reservation(WorkloadId gang) {
  state_changed();
  const auto unreserve = [&](const std::vector<NodeIndex>& nodes) {
    for (NodeIndex node : nodes) {
      if (node.valid() && node.value() < static_cast<uint32_t>(policy_.node_count()) &&
          capacity_.reserved(node) && capacity_.reserved_for(node) == gang) {
        capacity_.unreserve(node);
      }
    }
  };
  for (const HeldReservation& r : snapshot_.reservations) {
    if (r.workload == gang) unreserve(r.nodes);
  }
  reserved_quota_.erase(gang);
  auto it = std::find_if(plan_.reservations.begin(), plan_.reservations.end(),
                         [&](const Reservation& r) { return r.workload == gang; });
  if (it == plan_.reservations.end()) return;
  unreserve(it->nodes);
  auto& priorities = reservation_priorities_[it->flavor.value()];
  priorities.erase(priorities.find(priority_of_pending(gang)));
  plan_.reservations.erase(it);
  // Its explanation, if it was explained already (each workload is explained once).
  auto explained = reserved_explanation_.find(gang.value());
  if (explained == reserved_explanation_.end()) return;
  PendingExplanation& e = plan_.explanations[explained->second];
  reserved_explanation_.erase(explained);
  if (e.reason == PendingReason::kReserved) {
    e.reason = e.fr >= 0 ? PendingReason::kQuotaExhausted : PendingReason::kNoFittingNodes;
    e.estimated_start = Timestamp::infinite_future();
  }
}

int32_t SchedulingCycle::priority_of_pending(WorkloadId id) const {
  const std::optional<uint32_t> index = pending_index_.find(id);
  return index ? snapshot_.pending[*index].priority : INT32_MAX;
}

void SchedulingCycle::record_reservation(const PendingWorkload& w, Reservation reservation,
                                         PendingExplanation* explanation) {
  state_changed();
  if (pod_count(w) <= 1) --reservations_left_[reservation.flavor.value()];
  explanation->reason = PendingReason::kReserved;
  explanation->estimated_start = reservation.starts_at;
  reservation_priorities_[reservation.flavor.value()].insert(w.priority);
  plan_.reservations.push_back(std::move(reservation));
}

// A reservation carried from the last plan keeps its nodes and its start
// while its start is still ahead, its nodes still hold the gang then, and
// its quota still holds: that is what makes the start stable.
bool SchedulingCycle::keep_held_reservation(const PendingWorkload& w, FlavorIndex flavor,
                                            PendingExplanation* explanation) {
  auto held = std::find_if(snapshot_.reservations.begin(), snapshot_.reservations.end(),
                           [&](const HeldReservation& r) { return r.workload == w.id; });
  if (held == snapshot_.reservations.end() || held->starts_at <= snapshot_.now) return false;
  for (NodeIndex node : held->nodes) {
    if (!node.valid() || node.value() >= static_cast<uint32_t>(policy_.node_count()) ||
        policy_.node(node).flavor != flavor || capacity_.reserved_for(node) != w.id) {
      return false;
    }
  }
  if (pod_count(w) > 1 && !reserved_quota_.holds(w.id)) return false;
  if (!reservation_covers(capacity_, timeline(), w, held->nodes, held->starts_at, snapshot_.now)) {
    return false;
  }
  record_reservation(w, {w.id, flavor, held->nodes, held->starts_at}, explanation);
  return true;
}

// A gang that shares quota with a reserved gang starts when that one ends
// unless both fit side by side; *reserved gets the quota it will hold.
std::optional<Reservation> SchedulingCycle::plan_beside_other_gangs(
    const PendingWorkload& w, bool gang, std::span<const QuotaRelease> releases,
    const ResourceVector& total, GangReservationRequest& request,
    std::optional<ReservedQuota>* reserved) {
  for (size_t round = 0; round <= reserved_quota_.size(); ++round) {
    std::optional<Reservation> reservation =
        plan_gang_reservation(capacity_, timeline(), request,
                              options_.reuse_reservation_steps ? &reservation_steps_ : nullptr);
    if (!reservation || !gang) return reservation;
    reserved->emplace(released_at(request.flavor, releases, reservation->starts_at), w.id, w.team,
                      request.flavor, total, reservation->starts_at, w.max_runtime,
                      policy_.cycle());
    const Timestamp planned = reservation->starts_at;
    // Each gang running at its start may fit beside it alone and not all together.
    const Timestamp later = reserved_quota_.later_start(**reserved, planned);
    if (later == planned && (*reserved)->holds()) return reservation;
    if (later == planned || later == Timestamp::infinite_future()) break;
    request.not_before = later;
  }
  reserved->reset();
  return std::nullopt;
}

bool SchedulingCycle::try_reserve(const PendingWorkload& w, FlavorIndex flavor,
                                  PendingExplanation* explanation) {
  const int32_t pods = pod_count(w);
  const bool gang = pods > 1;
  if (!gang && reservations_left_[flavor.value()] <= 0) return false;
  if (holds_reservation_.contains(w.id.value())) {
    // A drain that no longer holds is given up, never kept as a reservation.
    const bool drain = !held_drains_.empty() && held_drains_.contains(w.id.value());
    if (!drain && keep_held_reservation(w, flavor, explanation)) return true;
    drop_reservation(w.id);
  }
  ResourceVector per_pod;
  for (const PodSetRequest& set : w.pod_sets) {
    if (per_pod.fits_in(set.per_pod)) per_pod = set.per_pod;
  }
  auto& failed = failed_reservations_[flavor.value()];
  // A gang that could take no reservation's nodes fails where any gang failed.
  const std::multiset<int32_t>& reserved_priorities = reservation_priorities_[flavor.value()];
  const bool may_take_over =
      gang && !reserved_priorities.empty() && *reserved_priorities.begin() < w.priority;
  for (const FailedReservation& f : failed) {
    if (f.per_pod.fits_in(per_pod) && f.pods <= pods &&
        (w.priority <= f.priority || !may_take_over)) {
      return false;
    }
  }
  const ResourceVector& total = facts_[static_cast<size_t>(&w - snapshot_.pending.data())].total;
  const std::vector<QuotaRelease>& releases = quota_releases(flavor);
  const Timestamp quota_at =
      earliest_quota_fit(quota_, releases, w.team, flavor, total, snapshot_.now);
  if (quota_at == Timestamp::infinite_future()) return false;
  std::vector<NodeIndex> held;
  for (const HeldReservation& r : snapshot_.reservations) {
    if (r.workload == w.id) held = r.nodes;
  }
  // A gang may take the nodes of a less important gang's reservation (every
  // reserved node's gang is pending: its priority is kept by node).
  const auto reservable = [&](NodeIndex node) {
    if (!capacity_.reserved(node)) return true;
    return gang && reserved_priority_[node.value()] < w.priority;
  };
  GangReservationRequest request{&w, flavor, snapshot_.now, quota_at, held, reservable};
  std::optional<ReservedQuota> reserved;
  std::optional<Reservation> reservation =
      plan_beside_other_gangs(w, gang, releases, total, request, &reserved);
  if (!reservation) {
    failed.push_back({per_pod, pods, w.priority});
    return false;
  }
  // Nodes taken from a less important gang: that gang plans again next cycle.
  std::vector<WorkloadId> displaced;
  for (NodeIndex node : reservation->nodes) {
    if (capacity_.reserved(node)) displaced.push_back(capacity_.reserved_for(node));
    reserve_node(node, w, reservation->starts_at);
  }
  for (WorkloadId other : displaced) {
    if (other == w.id) continue;
    drop_reservation(other);
    failed.clear();  // the nodes it kept are free again: earlier failures say nothing now
  }
  if (reserved) add_reserved_quota(std::move(*reserved));
  record_reservation(w, std::move(*reservation), explanation);
  return true;
}

}  // namespace allot
