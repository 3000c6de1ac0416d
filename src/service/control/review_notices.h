// Opening the reviews of connection contracts that fall due (issue 15,
// item 5; governance/contract_reviews.h decides which and why): each goes
// UnderReview by `system:allotd` with the reason in its history, and its
// owners are notified: an audit record (system:allotd, verb review,
// resource contracts) and, when the contract names a reviewWebhook, a POST
// of the notice there, delivered like a Signal's event (signal_webhooks.h:
// never from the admission loop, retried with backoff, at least once,
// re-sent after a restart until taken).
//
// Contract: open_reviews() is pure; the notice is stored as a
// ContractReviewEvent object (its document is the webhook's body: kind
// ContractReviewDue, contract, project, reason, at, owners, reviewDue,
// reviewGraceEnds, webhook, delivered), named review-<contract>-<ms>-<n>
// (n: the review's place in the contract's history).
// announce_reviews() requires the state held exclusively.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "governance/contract_reviews.h"
#include "service/control/cluster_state.h"
#include "service/control/contract_state.h"
#include "service/control/signal_state.h"

namespace allot {

inline constexpr std::string_view kContractReviewEventKind = "ContractReviewEvent";

struct OpenedReviews {
  ContractStatusChanges statuses;                    // each UnderReview
  std::map<std::string, SignalEventRecord> notices;  // by ContractReviewEvent name
  std::vector<governance::AuditEvent> audit;

  [[nodiscard]] bool empty() const { return statuses.put.empty(); }
};

// Contracts that are not Active any more (or unknown) are skipped.
OpenedReviews open_reviews(const std::vector<ReviewDue>& due, const Policy& policy,
                           const ContractStatuses& statuses, Timestamp now);

// The statuses and the notices, into the change's batch.
void put_opened_reviews(const OpenedReviews& opened, WriteBatch& batch);

// Once stored with its change (the caller installs the statuses): the
// notices to deliver (undelivered, picked up by the signals' worker), the
// audit records, and a line in allotd's log.
void announce_reviews(OpenedReviews opened, ServerState& state, ClusterState& cluster);

// Recovery: a stored ContractReviewEvent not yet delivered is delivered again.
Status load_contract_review_event(const std::string& name, const std::string& document,
                                  SignalsState& state);

}  // namespace allot
