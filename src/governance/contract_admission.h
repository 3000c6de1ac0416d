// Enforcement of connection contracts at admission (issue 15, item 4;
// DESIGN.md section 8): whether a workload of namespace `ns` and kind `kind`
// may be admitted now, and if not, why.
//
// Contract: pure. Without an Organization nothing is enforced (installs that
// never applied one behave as before). With one, every namespace is governed:
// its workloads run only under a contract that covers the namespace, is
// Active (or UnderReview) and not past its review's grace, approves the kind,
// and whose cluster may hold its data classification (a Cluster without
// maxDataClassification holds the lowest level only). Any one such contract
// suffices. Otherwise the refusal of the contract that got furthest, in the
// order ContractMissing, ReviewOverdue, KindNotApproved,
// ClassificationAboveCluster. `permanent` marks the refusals that no
// transition of the contracts in force can lift (kind and classification):
// a submit refused so fails at once. `statuses` are by contract name; a
// contract without one is Draft.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/time.h"
#include "model/contract.h"
#include "model/policy.h"

namespace allot {

enum class ContractRefusal : uint8_t {
  kContractMissing,
  kReviewOverdue,
  kKindNotApproved,
  kClassificationAboveCluster,
};

struct ContractVerdict {
  ContractRefusal reason = ContractRefusal::kContractMissing;
  std::string message;
  bool permanent = false;
  std::optional<Timestamp> review_due;  // ReviewOverdue: when the review fell due

  friend bool operator==(const ContractVerdict&, const ContractVerdict&) = default;
};

std::string_view contract_refusal_name(ContractRefusal reason);

// nullopt: admissible as far as contracts go.
std::optional<ContractVerdict> contract_refusal(
    const Policy& policy, const std::map<std::string, ContractStatus>& statuses,
    std::string_view ns, WorkloadKind kind, Timestamp now);

}  // namespace allot
