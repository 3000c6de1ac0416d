// Team: a tenant, with one namespace, one queue, its quota and its preemption policy.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/object_meta.h"
#include "model/quota.h"

namespace allot {

// Whom a pending workload of this team may preempt in other teams of its cohort.
enum class ReclaimPolicy { kNever, kLowerPriority, kAny };
// Whom it may preempt in its own team.
enum class WithinTeamPolicy { kNever, kLowerPriority };
// Whether it may preempt other teams' workloads while it is itself borrowing.
enum class BorrowWithinCohortPolicy { kNever, kLowerPriority };
// BestEffortFIFO lets later workloads pass a blocked head; StrictFIFO does not.
enum class QueueingStrategy { kBestEffortFifo, kStrictFifo };

struct TeamPreemption {
  ReclaimPolicy reclaim_within_cohort = ReclaimPolicy::kNever;
  WithinTeamPolicy within_team = WithinTeamPolicy::kNever;
  BorrowWithinCohortPolicy borrow_within_cohort = BorrowWithinCohortPolicy::kNever;
  // Only victims with priority <= this may be preempted while borrowing.
  std::optional<int32_t> borrow_max_priority_threshold;

  friend bool operator==(const TeamPreemption&, const TeamPreemption&) = default;
};

struct TeamOwners {
  std::string business;
  std::string operations;
  std::string cost;

  friend bool operator==(const TeamOwners&, const TeamOwners&) = default;
};

// Where a team's pods may open connections besides their own namespace and
// DNS (rendered as its NetworkPolicy; allot's own executor does not enforce it).
struct TeamNetwork {
  // Kubernetes namespaces, sorted and unique; a team's namespace names that team.
  std::vector<std::string> egress_namespaces;

  friend bool operator==(const TeamNetwork&, const TeamNetwork&) = default;
};

struct Team {
  ObjectMeta meta;
  std::string namespace_name;  // defaults to the team's name
  std::string cohort;          // empty: a team that lends and borrows with nobody
  double fair_share_weight = 1.0;
  std::vector<FlavorQuota> quota;  // flavors in the order they are tried
  TeamPreemption preemption;
  QueueingStrategy queueing = QueueingStrategy::kBestEffortFifo;
  std::vector<std::string> allowed_priority_classes;  // empty: all
  TeamOwners owners;
  TeamNetwork network;
  // Storage settings (volume, mount, class...), carried verbatim until storage is modelled.
  std::map<std::string, std::string> storage;

  friend bool operator==(const Team&, const Team&) = default;
};

}  // namespace allot
