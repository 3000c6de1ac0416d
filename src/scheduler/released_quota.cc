#include "scheduler/released_quota.h"

#include <algorithm>

namespace allot {
namespace {

// How many releases, from the first, end at or before `at`.
size_t ended_by(std::span<const QuotaRelease> releases, Timestamp at) {
  return static_cast<size_t>(
      std::partition_point(releases.begin(), releases.end(),
                           [&](const QuotaRelease& r) { return !(r.at > at); }) -
      releases.begin());
}

}  // namespace

QuotaTree released_quota_at(const QuotaTree& quota, std::span<const QuotaRelease> releases,
                            FlavorIndex flavor, Timestamp at) {
  QuotaTree slice = quota.flavor_slice(flavor);
  for (const QuotaRelease& release : releases) {
    if (release.at > at) break;
    slice.remove_usage(release.team, flavor, release.amount);
  }
  return slice;
}

bool ReleasedQuota::built_from(const QuotaTree& quota) const {
  const int32_t nodes = quota.policy().quota_node_count();
  const int32_t first = CompiledPolicy::fr_of(flavor_, static_cast<Resource>(0));
  for (int32_t node = 0; node < nodes; ++node) {
    for (int32_t fr = first; fr < first + kResourceCount; ++fr) {
      if (base_->usage(node, fr) != quota.usage(node, fr)) return false;
    }
  }
  return true;
}

const QuotaTree& ReleasedQuota::at(const QuotaTree& quota, std::span<const QuotaRelease> releases,
                                   uint64_t version, Timestamp at) {
  if (base_ && version == version_ && built_from(quota)) {
    ++reused_;
  } else {
    base_ = quota.flavor_slice(flavor_);
    moved_ = base_;
    taken_ = 0;
    version_ = version;
  }
  const size_t wanted = ended_by(releases, at);
  for (; taken_ < wanted; ++taken_) {
    moved_->remove_usage(releases[taken_].team, flavor_, releases[taken_].amount);
  }
  while (taken_ > wanted) {
    --taken_;
    moved_->add_usage(releases[taken_].team, flavor_, releases[taken_].amount);
  }
  return *moved_;
}

}  // namespace allot
