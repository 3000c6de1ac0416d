// When a connection contract's review falls due (issue 15, item 5; DESIGN.md
// section 8), and why: on its interval and on events.
//
// Contract: pure. Only an Active contract falls due (an UnderReview one is
// being reviewed already; the others are not in force). Each contract falls
// due at most once per call, with every reason that applies joined by "; ".
// - interval_reviews_due(): reviewedAt + reviewInterval <= now.
// - event_reviews_due(), between the policy before and after a change:
//   the contract's own spec changed (an owner, schedulingPolicyOwner,
//   exceptionOwner, projectRole, accessRole, dataClassification,
//   reviewWebhook or monitoringSignals: what may change while it is in
//   force, see reviewable_spec_change); its cluster's capacity changed (a NodePool of
//   that cluster added, removed or changed) or its orchestratorVersion or
//   maxDataClassification changed; the Organization's classification levels
//   changed. A contract that did not exist before does not fall due.
// - coverage_reviews_due(): monitoring coverage dropped: a Signal that the
//   contract names in monitoringSignals stopped having data (the caller
//   says which signals did, signal_monitor.h).
// `statuses` are by contract name; a contract without one is Draft.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/contract.h"
#include "model/policy.h"

namespace allot {

struct ReviewDue {
  std::string contract;
  std::string reason;

  friend bool operator==(const ReviewDue&, const ReviewDue&) = default;
};

std::vector<ReviewDue> interval_reviews_due(const Policy& policy,
                                            const std::map<std::string, ContractStatus>& statuses,
                                            Timestamp now);

std::vector<ReviewDue> event_reviews_due(const Policy& before, const Policy& after,
                                         const std::map<std::string, ContractStatus>& statuses);

std::vector<ReviewDue> coverage_reviews_due(const Policy& policy,
                                            const std::map<std::string, ContractStatus>& statuses,
                                            const std::vector<std::string>& signals_without_data);

// Whether `after` differs from `before` only in what may change while the
// contract is in force (owners, schedulingPolicyOwner, exceptionOwner,
// projectRole, accessRole, dataClassification, reviewWebhook,
// monitoringSignals): the fields
// that changed, named as in the manifest; nullopt when anything else
// changed (or nothing did).
std::optional<std::string> reviewable_spec_change(const ContractSpec& before,
                                                  const ContractSpec& after);

}  // namespace allot
