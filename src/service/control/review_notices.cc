#include "service/control/review_notices.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "governance/contract_lifecycle.h"
#include "service/control/control_audit.h"

namespace allot {
namespace {

constexpr const char* kReviewBy = "system:allotd";

const Contract* notice_contract(const Policy& policy, const std::string& name) {
  for (const Contract& contract : policy.contracts) {
    if (contract.meta.name == name) return &contract;
  }
  return nullptr;
}

nlohmann::json review_notice_json(const Contract& contract, const ContractStatus& status,
                                  const std::string& reason, Timestamp now) {
  const ContractSpec& spec = contract.spec;
  nlohmann::json notice = {{"kind", "ContractReviewDue"},
                           {"contract", contract.meta.name},
                           {"project", spec.project},
                           {"reason", reason},
                           {"at", format_rfc3339(now)},
                           {"owners",
                            {{"business", spec.owners.business},
                             {"operations", spec.owners.operations},
                             {"cost", spec.owners.cost},
                             {"schedulingPolicyOwner", spec.scheduling_policy_owner},
                             {"exceptionOwner", spec.exception_owner}}},
                           {"webhook", spec.review_webhook},
                           {"delivered", false}};
  if (const std::optional<ReviewSchedule> schedule = review_schedule(spec, status)) {
    notice["reviewDue"] = format_rfc3339(schedule->due);
    notice["reviewGraceEnds"] = format_rfc3339(schedule->grace_ends);
  }
  return notice;
}

}  // namespace

OpenedReviews open_reviews(const std::vector<ReviewDue>& due, const Policy& policy,
                           const ContractStatuses& statuses, Timestamp now) {
  OpenedReviews opened;
  for (const ReviewDue& review : due) {
    const Contract* contract = notice_contract(policy, review.contract);
    const auto stored = statuses.find(review.contract);
    if (contract == nullptr || stored == statuses.end()) continue;
    const std::string reason = "review due: " + review.reason;
    Result<ContractStatus> next =
        contract_transition(stored->second, ContractAction::kReview, kReviewBy, reason, now);
    if (!next.ok()) continue;  // not Active any more
    // Unique: the time and the transition's place in the history.
    const std::string name = "review-" + review.contract + "-" + std::to_string(now.ms()) + "-" +
                             std::to_string(next->history.size());
    const std::string document = review_notice_json(*contract, *next, reason, now).dump();
    opened.notices[name] = {contract->spec.review_webhook, document,
                            std::string(kContractReviewEventKind)};
    opened.audit.push_back(system_audit_event("review", "contracts", "", review.contract,
                                              reason + " (owners notified)", now));
    opened.statuses.put[review.contract] = std::move(next).value();
  }
  return opened;
}

void put_opened_reviews(const OpenedReviews& opened, WriteBatch& batch) {
  put_contract_statuses(opened.statuses, batch);
  for (const auto& [name, notice] : opened.notices) {
    batch.put_objects.push_back({notice.kind, name, notice.document});
  }
}

void announce_reviews(OpenedReviews opened, ServerState& state, ClusterState& cluster) {
  for (auto& [name, notice] : opened.notices) {
    cluster.logger().warn("contract review due", {{"event", name}, {"notice", notice.document}});
    if (!notice.webhook.empty()) state.signals.undelivered[name] = std::move(notice);
  }
  for (governance::AuditEvent& event : opened.audit) cluster.audit_control(std::move(event));
}

Status load_contract_review_event(const std::string& name, const std::string& document,
                                  SignalsState& state) {
  const nlohmann::json notice = nlohmann::json::parse(document, nullptr, false);
  if (!notice.is_object() || !notice.contains("contract")) {
    return invalid_argument("stored ContractReviewEvent '" + name + "' is malformed");
  }
  const std::string webhook = notice.value("webhook", "");
  if (!webhook.empty() && !notice.value("delivered", false)) {
    state.undelivered[name] = {webhook, document, std::string(kContractReviewEventKind)};
  }
  return {};
}

}  // namespace allot
