// Plan: the scheduler's decisions for one cycle, each with its reason.
//
// Contract: the caller carries a plan out in this order: withdrawn
// handovers, new handovers (before their victims' stops), evictions (failed
// nodes), preemptions (victims get their grace period and keep their capacity
// until they stop; a victim whose grace period is zero stops at once, and its
// beneficiary may be admitted in the same plan), admissions. Every pending workload that is not
// admitted has exactly one PendingExplanation, unless the scheduler was asked not to explain
// blocked StrictFIFO tails one by one (SchedulerOptions::explain_blocked_tails, for callers that
// never read them, such as a trace replay): the workloads of such a tail are then named only by
// a BlockedTail, which expand_blocked_tails() (blocked_tails.h) turns back into their
// explanations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/ids.h"
#include "scheduler/snapshot.h"

namespace allot {

struct Admission {
  WorkloadId workload;
  FlavorIndex flavor;
  std::vector<PodSetAssignment> assignment;  // one per pod set
  ResourceVector usage;
  bool borrowing = false;  // the team's usage exceeds its nominal quota with this
  // The part of `usage` above the team's nominal quota at admission (per
  // governed resource): what metering counts as borrowed; the rest is own.
  ResourceVector borrowed = {};
  bool partial = false;   // some pod set got fewer pods than it asked for
  bool backfill = false;  // runs on reserved nodes, finishing before the reservation
};

enum class PreemptionReason : uint8_t {
  kReclaimWithinCohort,  // the victim's team borrowed the beneficiary's quota
  kWithinTeam,           // a lower-priority workload of the same team
  kBorrowWithinCohort,   // beneficiary borrows; victim is below the priority threshold
  kFairShare,            // the victim's team has the higher weighted share
  kConsolidation,        // moved: work within its team's nominal, requeued to run elsewhere
};

struct Preemption {
  WorkloadId victim;
  WorkloadId beneficiary;
  PreemptionReason reason = PreemptionReason::kWithinTeam;
  Duration grace_period;
};

// A running workload whose node failed: it is requeued at its original position.
struct Eviction {
  WorkloadId workload;
  NodeIndex node;
};

// Nodes held for a blocked gang from `starts_at`; only work that ends before
// then may use them meanwhile. A drain (cycle_drains.cc) starts at the
// infinite future; so does a consolidation's hold (cycle_consolidation.cc):
// a node held for its workload while the work moved off it stops.
struct Reservation {
  WorkloadId workload;
  FlavorIndex flavor;
  std::vector<NodeIndex> nodes;
  Timestamp starts_at;
  bool consolidation = false;  // a consolidation's hold
};

enum class PendingReason : uint8_t {
  kQuotaExhausted,        // a team or cohort limit: see quota_node, fr, numbers
  kNoFittingNodes,        // quota allows it; no healthy nodes have room now
  kExceedsCapacity,       // larger than all healthy nodes of every usable flavor
  kWaitingForPreemption,  // victims chosen; waiting for them to stop
  kReserved,              // nodes reserved; starts at estimated_start
  kBlockedByStrictFifo,   // an earlier workload of the team is blocked
  kNoUsableFlavor,        // the team has no quota in any flavor it asks for
  kHeldForReservation,    // quota allows it now, but a reserved gang needs it at its start
};

enum class PreemptionVerdict : uint8_t {
  kNotNeeded,           // no preemption was needed or considered
  kNotAllowed,          // the team's policy or the priority class forbids it
  kNoCandidates,        // nothing running that the policy lets it preempt
  kCandidatesTooYoung,  // candidates exist but are within minRuntimeSeconds
  kInsufficient,        // preempting every candidate would still not make room
  kFairShareRefused,    // the fair-share rule protects the other teams
  kPreempting,          // victims chosen this cycle
  kWaitingForVictims,   // victims chosen earlier are still stopping
  kDeferred,            // the team's head already preempted this cycle
};

struct PendingExplanation {
  WorkloadId workload;
  PendingReason reason = PendingReason::kQuotaExhausted;
  PreemptionVerdict preemption = PreemptionVerdict::kNotNeeded;
  FlavorIndex flavor;          // the first flavor tried, or the limiting one
  int32_t quota_node = -1;     // the team or cohort whose limit binds
  int32_t fr = -1;             // flavor-resource that binds
  int64_t requested = 0;       // of that resource
  int64_t available = 0;       // of that resource, for this team, now
  int64_t holder_usage = 0;    // usage of the biggest borrower of it
  int32_t holder_team = -1;    // the team that borrows the most of it, if any
  int32_t queue_position = 0;  // 1-based, within its team's queue
  Timestamp estimated_start = Timestamp::infinite_future();
};

// Every workload of `team` queued behind its blocked head (queue positions
// after `head_position`) waits for it (kBlockedByStrictFifo). Their
// explanations would stand at `explanation_index` of Plan::explanations.
struct BlockedTail {
  TeamIndex team;
  int32_t head_position = 0;
  size_t explanation_index = 0;
};

struct Plan {
  std::vector<Eviction> evictions;
  std::vector<Preemption> preemptions;
  std::vector<Admission> admissions;
  std::vector<Reservation> reservations;
  // Promises in force after this plan (new ones, and the snapshot's still
  // waiting for their victims); a kept one is admitted at its assignment.
  std::vector<Handover> handovers;
  // Promises broken this cycle: their workloads go back to their queues, and
  // the caller takes back what their backends hold ready (executor.h's withdraw()).
  std::vector<WorkloadId> withdrawn_handovers;
  std::vector<PendingExplanation> explanations;
  std::vector<BlockedTail> blocked_tails;  // only when tails are not explained one by one
};

}  // namespace allot
