#include "scheduler/reserved_gangs.h"

#include <algorithm>
#include <utility>

namespace allot {

ReservedGangs::ReservedGangs(int32_t flavor_count)
    : flavors_(static_cast<size_t>(std::max(flavor_count, 0))) {}

ReservedGangs::Flavor& ReservedGangs::flavor(FlavorIndex f) {
  if (f.value() >= flavors_.size()) flavors_.resize(f.value() + size_t{1});
  return flavors_[f.value()];
}

void ReservedGangs::add(ReservedQuota reserved) {
  Flavor& f = flavor(reserved.flavor());
  for (size_t i = 0; i < f.gangs.size(); ++i) {
    reserved.link(f.gangs[i]);
    f.windows[i].holds = f.gangs[i].holds();
  }
  f.windows.push_back({reserved.starts_at(), reserved.ends_at(), reserved.holds()});
  f.gangs.push_back(std::move(reserved));
  ++count_;
}

void ReservedGangs::erase(WorkloadId gang) {
  for (Flavor& f : flavors_) {
    size_t kept = 0;
    for (size_t i = 0; i < f.gangs.size(); ++i) {
      if (f.gangs[i].gang() == gang) continue;
      if (kept != i) {
        f.gangs[kept] = std::move(f.gangs[i]);
        f.windows[kept] = f.windows[i];
      }
      ++kept;
    }
    count_ -= f.gangs.size() - kept;
    f.gangs.erase(f.gangs.begin() + static_cast<std::ptrdiff_t>(kept), f.gangs.end());
    f.windows.resize(kept);
  }
}

bool ReservedGangs::holds(WorkloadId gang) const {
  return std::any_of(flavors_.begin(), flavors_.end(), [&](const Flavor& f) {
    return std::any_of(f.gangs.begin(), f.gangs.end(),
                       [&](const ReservedQuota& r) { return r.gang() == gang && r.holds(); });
  });
}

bool ReservedGangs::allows(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                           const ResourceVector& amount, Timestamp finish_by, bool borrows) {
  if (flavor.value() >= flavors_.size()) return true;
  std::vector<ReservedQuota>& gangs = flavors_[flavor.value()].gangs;
  return std::all_of(gangs.begin(), gangs.end(), [&](ReservedQuota& r) {
    return r.allows(workload, team, flavor, amount, finish_by, borrows);
  });
}

void ReservedGangs::admitted(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                             const ResourceVector& amount, Timestamp finish_by) {
  if (flavor.value() >= flavors_.size()) return;
  for (ReservedQuota& r : flavors_[flavor.value()].gangs) {
    r.admitted(workload, team, flavor, amount, finish_by);
  }
}

// conflicts_with() is false unless both gangs hold and one's window contains
// the other's start; the windows rule out the rest without the quota. Its
// first half (the other gang, running at reserved's start, leaves reserved
// short) is false for every gang start_beside() counts when reserved fits
// beside all of them together.
Timestamp ReservedGangs::later_start(ReservedQuota& reserved, Timestamp planned) {
  if (!reserved.holds() || reserved.flavor().value() >= flavors_.size()) return planned;
  Flavor& f = flavors_[reserved.flavor().value()];
  const Timestamp start = reserved.starts_at();
  const Timestamp end = reserved.ends_at();
  const Timestamp beside = reserved.start_beside(f.gangs);
  const bool fits_beside_all = beside == start;  // else the first end among them, after start
  Timestamp later = planned;
  for (size_t i = 0; i < f.windows.size(); ++i) {
    const Window& w = f.windows[i];
    if (!w.holds) continue;
    const bool runs_at_start = w.starts_at <= start && start < w.ends_at;
    if (!runs_at_start && !(start <= w.starts_at && w.starts_at < end)) continue;
    ReservedQuota& other = f.gangs[i];
    // start_beside() counts every other gang that holds and runs at the start.
    bool conflict = false;
    if (fits_beside_all && other.gang() != reserved.gang()) {
      halves_skipped_ += runs_at_start ? 1 : 0;
      conflict = reserved.crowds_out(other);
    } else {
      conflict = reserved.conflicts_with(other);
    }
    if (conflict) later = std::max(later, w.ends_at);
  }
  return later == planned ? beside : later;
}

}  // namespace allot
