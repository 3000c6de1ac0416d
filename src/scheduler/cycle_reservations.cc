// The reservation half of SchedulingCycle: the previous plan's reservations
// held again, new ones for blocked gangs (nodes and quota), and the check
// that keeps other work off what a reserved gang needs at its start.
#include <algorithm>

#include "scheduler/reservation_planner.h"
#include "scheduler/scheduling_cycle.h"

namespace allot {
namespace {

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
    auto it = pending_index_of_.find(r.workload.value());
    if (it == pending_index_of_.end()) continue;
    holds_reservation_.insert(r.workload.value());
    FlavorIndex flavor;
    for (NodeIndex node : r.nodes) {
      if (node.valid() && node.value() < static_cast<uint32_t>(policy_.node_count())) {
        capacity_.reserve(node, r.workload, r.starts_at);
        flavor = policy_.node(node).flavor;
      }
    }
    const PendingWorkload& w = snapshot_.pending[it->second];
    if (flavor.valid() && pod_count(w) > 1) {
      const std::vector<QuotaRelease> releases = quota_releases(flavor);
      reserved_quota_.emplace_back(quota_, releases, w.id, w.team, flavor, facts_[it->second].total,
                                   r.starts_at);
    }
  }
}

// What admitted work (and this cycle's admissions) gives back in `flavor`,
// by its declared end; stopping work by the end of its grace period.
std::vector<QuotaRelease> SchedulingCycle::quota_releases(FlavorIndex flavor) const {
  std::vector<QuotaRelease> releases;
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
    const PendingWorkload& w = snapshot_.pending[pending_index_of_.at(a.workload.value())];
    releases.push_back({finish_by(w), w.team, a.usage});
  }
  std::stable_sort(releases.begin(), releases.end(),
                   [](const QuotaRelease& a, const QuotaRelease& b) { return a.at < b.at; });
  return releases;
}

bool SchedulingCycle::reservations_allow(const PendingWorkload& w, FlavorIndex flavor,
                                         const ResourceVector& total) {
  const Timestamp end = finish_by(w);
  const bool borrows = quota_.would_borrow(w.team, flavor, total);
  return std::all_of(reserved_quota_.begin(), reserved_quota_.end(), [&](ReservedQuota& r) {
    return r.allows(w.id, w.team, flavor, total, end, borrows);
  });
}

void SchedulingCycle::note_admission_for_reservations(const PendingWorkload& w, FlavorIndex flavor,
                                                      const ResourceVector& total) {
  std::erase_if(reserved_quota_, [&](const ReservedQuota& r) { return r.gang() == w.id; });
  for (ReservedQuota& r : reserved_quota_) r.admitted(w.id, w.team, flavor, total, finish_by(w));
}

// A gang's own reservation is given up before it is planned again, and a
// less important gang's reservation gives way to it.
void SchedulingCycle::drop_reservation(WorkloadId gang) {
  for (int32_t n = 0; n < policy_.node_count(); ++n) {
    const NodeIndex node(static_cast<uint32_t>(n));
    if (capacity_.reserved(node) && capacity_.reserved_for(node) == gang) capacity_.unreserve(node);
  }
  std::erase_if(reserved_quota_, [&](const ReservedQuota& r) { return r.gang() == gang; });
  auto it = std::find_if(plan_.reservations.begin(), plan_.reservations.end(),
                         [&](const Reservation& r) { return r.workload == gang; });
  if (it == plan_.reservations.end()) return;
  ++reservations_left_[it->flavor.value()];
  plan_.reservations.erase(it);
  for (PendingExplanation& e : plan_.explanations) {
    if (e.workload == gang && e.reason == PendingReason::kReserved) {
      e.reason = e.fr >= 0 ? PendingReason::kQuotaExhausted : PendingReason::kNoFittingNodes;
      e.estimated_start = Timestamp::infinite_future();
    }
  }
}

int32_t SchedulingCycle::priority_of_pending(WorkloadId id) const {
  auto it = pending_index_of_.find(id.value());
  return it == pending_index_of_.end() ? INT32_MAX : snapshot_.pending[it->second].priority;
}

bool SchedulingCycle::try_reserve(const PendingWorkload& w, FlavorIndex flavor,
                                  PendingExplanation* explanation) {
  const int32_t pods = pod_count(w);
  const bool gang = pods > 1;
  if (!gang && reservations_left_[flavor.value()] <= 0) return false;
  ResourceVector per_pod;
  for (const PodSetRequest& set : w.pod_sets) {
    if (per_pod.fits_in(set.per_pod)) per_pod = set.per_pod;
  }
  auto& failed = failed_reservations_[flavor.value()];
  for (const FailedReservation& f : failed) {
    if (f.per_pod.fits_in(per_pod) && f.pods <= pods && w.priority <= f.priority) return false;
  }
  const ResourceVector& total = facts_[static_cast<size_t>(&w - snapshot_.pending.data())].total;
  const std::vector<QuotaRelease> releases = quota_releases(flavor);
  const Timestamp quota_at =
      earliest_quota_fit(quota_, releases, w.team, flavor, total, snapshot_.now);
  if (quota_at == Timestamp::infinite_future()) return false;
  std::vector<NodeIndex> held;
  for (const HeldReservation& r : snapshot_.reservations) {
    if (r.workload == w.id) held = r.nodes;
  }
  if (holds_reservation_.contains(w.id.value())) drop_reservation(w.id);
  // A gang may take the nodes of a less important gang's reservation.
  const auto reservable = [&](NodeIndex node) {
    return !capacity_.reserved(node) ||
           (gang && priority_of_pending(capacity_.reserved_for(node)) < w.priority);
  };
  GangReservationRequest request{&w, flavor, snapshot_.now, quota_at, held, reservable};
  // Who held each node before: a less important gang whose node it takes
  // gives up its reservation and plans again next cycle.
  std::vector<std::pair<NodeIndex, WorkloadId>> holders;
  for (NodeIndex node : capacity_.topology().nodes_of_flavor(flavor)) {
    if (capacity_.reserved(node)) holders.emplace_back(node, capacity_.reserved_for(node));
  }
  std::optional<Reservation> reservation = reserve_for_gang(capacity_, timeline(), request);
  if (!reservation) {
    failed.push_back({per_pod, pods, w.priority});
    return false;
  }
  for (const auto& [node, holder] : holders) {
    if (holder != w.id && capacity_.reserved_for(node) == w.id) drop_reservation(holder);
  }
  if (!gang) --reservations_left_[flavor.value()];
  if (gang) {
    reserved_quota_.emplace_back(quota_, releases, w.id, w.team, flavor, total,
                                 reservation->starts_at);
  }
  explanation->reason = PendingReason::kReserved;
  explanation->estimated_start = reservation->starts_at;
  plan_.reservations.push_back(std::move(*reservation));
  return true;
}

}  // namespace allot
