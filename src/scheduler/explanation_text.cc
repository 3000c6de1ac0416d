#include "scheduler/explanation_text.h"

namespace allot {
namespace {

// An estimate to the second, rounded up ("in 59m52s", not "in 59m51s863ms"):
// an estimate's milliseconds are noise to the reader.
std::string estimate_text(Duration until) {
  if (until < Duration::seconds(1)) return until.to_string();
  return Duration::seconds((until.ms() + 999) / 1000).to_string();
}

std::string fr_text(const CompiledPolicy& policy, int32_t fr) {
  const auto resource = static_cast<Resource>(fr % kResourceCount);
  const FlavorIndex flavor(static_cast<uint16_t>(fr / kResourceCount));
  return std::string(resource_name(resource)) + " in flavor " + policy.flavor_name(flavor);
}

std::string quota_node_text(const CompiledPolicy& policy, int32_t node) {
  return (policy.is_team(node) ? "team '" : "cohort '") + policy.quota_node_name(node) + "'";
}

std::string verdict_text(PreemptionVerdict verdict) {
  switch (verdict) {
    case PreemptionVerdict::kNotNeeded: return "";
    case PreemptionVerdict::kNotAllowed:
      return " Preemption is not allowed by the team's policy or the priority class.";
    case PreemptionVerdict::kNoCandidates:
      return " Preemption was considered: nothing running may be preempted for it.";
    case PreemptionVerdict::kCandidatesTooYoung:
      return " Preemption was considered: the candidates have not yet run their minimum runtime.";
    case PreemptionVerdict::kInsufficient:
      return " Preemption was considered: preempting every candidate would not make room.";
    case PreemptionVerdict::kFairShareRefused:
      return " Preemption was refused: the other teams do not have a higher fair share.";
    case PreemptionVerdict::kPreempting:
      return " Preempting workloads to make room; they are given their grace period.";
    case PreemptionVerdict::kWaitingForVictims:
      return " Workloads preempted for it are still stopping.";
    case PreemptionVerdict::kDeferred:
      return " Another workload of the team preempted this cycle; it is considered next cycle.";
  }
  return "";
}

}  // namespace

std::string_view pending_reason_name(PendingReason reason) {
  switch (reason) {
    case PendingReason::kQuotaExhausted: return "QuotaExhausted";
    case PendingReason::kNoFittingNodes: return "NoFittingNodes";
    case PendingReason::kExceedsCapacity: return "ExceedsCapacity";
    case PendingReason::kWaitingForPreemption: return "WaitingForPreemption";
    case PendingReason::kReserved: return "Reserved";
    case PendingReason::kBlockedByStrictFifo: return "BlockedByStrictFIFO";
    case PendingReason::kNoUsableFlavor: return "NoUsableFlavor";
    case PendingReason::kHeldForReservation: return "HeldForReservation";
  }
  return "Unknown";
}

std::string_view preemption_verdict_name(PreemptionVerdict verdict) {
  switch (verdict) {
    case PreemptionVerdict::kNotNeeded: return "NotNeeded";
    case PreemptionVerdict::kNotAllowed: return "NotAllowed";
    case PreemptionVerdict::kNoCandidates: return "NoCandidates";
    case PreemptionVerdict::kCandidatesTooYoung: return "CandidatesTooYoung";
    case PreemptionVerdict::kInsufficient: return "Insufficient";
    case PreemptionVerdict::kFairShareRefused: return "FairShareRefused";
    case PreemptionVerdict::kPreempting: return "Preempting";
    case PreemptionVerdict::kWaitingForVictims: return "WaitingForVictims";
    case PreemptionVerdict::kDeferred: return "Deferred";
  }
  return "Unknown";
}

std::string_view preemption_reason_name(PreemptionReason reason) {
  switch (reason) {
    case PreemptionReason::kReclaimWithinCohort: return "ReclaimWithinCohort";
    case PreemptionReason::kWithinTeam: return "WithinTeam";
    case PreemptionReason::kBorrowWithinCohort: return "BorrowWithinCohort";
    case PreemptionReason::kFairShare: return "FairShare";
    case PreemptionReason::kConsolidation: return "Consolidation";
  }
  return "Unknown";
}

std::string describe_pending(const CompiledPolicy& policy, const PendingExplanation& e,
                             Timestamp now) {
  std::string text;
  switch (e.reason) {
    case PendingReason::kQuotaExhausted: {
      const auto resource = static_cast<Resource>(e.fr % kResourceCount);
      text = "Waiting for quota: " + quota_node_text(policy, e.quota_node) + " has " +
             format_quantity(resource, e.available) + " of " + fr_text(policy, e.fr) +
             " available for it, " + format_quantity(resource, e.requested) + " requested.";
      if (e.holder_team >= 0) {
        text += " Team '" + policy.team(TeamIndex(e.holder_team)).name +
                "' borrows the most of it (using " + format_quantity(resource, e.holder_usage) +
                ").";
      }
      break;
    }
    case PendingReason::kNoFittingNodes:
      text = "Quota allows it, but no healthy nodes of flavor " + policy.flavor_name(e.flavor) +
             " have room for all its pods now.";
      break;
    case PendingReason::kExceedsCapacity:
      text = "It is larger than all healthy nodes of every flavor its team may use.";
      break;
    case PendingReason::kWaitingForPreemption: text = "Capacity is being freed for it."; break;
    case PendingReason::kReserved:
      if (e.estimated_start == Timestamp::infinite_future()) {  // a drain (cycle_drains.cc)
        text = "A node of flavor " + policy.flavor_name(e.flavor) +
               " is drained for it: no new work lands there; when the work there within its "
               "team's quota has ended, borrowers' work there is reclaimed for it.";
        break;
      }
      text = "Nodes of flavor " + policy.flavor_name(e.flavor) +
             " are reserved for it; until then they run only work that ends in time.";
      break;
    case PendingReason::kBlockedByStrictFifo:
      text = "An earlier workload of its team is blocked and the team queues StrictFIFO.";
      break;
    case PendingReason::kNoUsableFlavor:
      text = "Its team has no quota in any flavor it may run on.";
      break;
    case PendingReason::kHeldForReservation:
      text = "Quota allows it now, but a gang reserved in flavor " + policy.flavor_name(e.flavor) +
             " needs that quota when it starts, and this workload would still be running then.";
      break;
  }
  text += verdict_text(e.preemption);
  text += " Position " + std::to_string(e.queue_position) + " in its team's queue.";
  if (e.estimated_start == Timestamp::infinite_future()) {
    text += " Estimated start: unknown (running work declares no maxRuntimeSeconds).";
  } else if (e.estimated_start <= now) {
    text += " Estimated start: next cycle.";
  } else {
    text += " Estimated start: in " + estimate_text(e.estimated_start - now) + ".";
  }
  return text;
}

}  // namespace allot
