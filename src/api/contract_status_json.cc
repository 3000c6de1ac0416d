#include "api/contract_status_json.h"

#include <array>
#include <string>
#include <utility>

#include "api/rfc3339.h"

namespace allot {
namespace {

using json = nlohmann::json;

constexpr std::array kStoredPhases = {ContractPhase::kDraft, ContractPhase::kApproved,
                                      ContractPhase::kActive, ContractPhase::kUnderReview,
                                      ContractPhase::kRevoked};
constexpr std::array kStoredActions = {ContractAction::kCreate,   ContractAction::kApprove,
                                       ContractAction::kActivate, ContractAction::kReview,
                                       ContractAction::kRenew,    ContractAction::kRevoke};

Result<std::string> stored_string(const json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    return invalid_argument("expected a string", where + key);
  }
  return it->get<std::string>();
}

Result<Timestamp> stored_time(const json& object, const char* key, const std::string& where) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, stored_string(object, key, where));
  Result<Timestamp> at = parse_rfc3339(text);
  if (!at.ok()) return invalid_argument(at.status().message(), where + key);
  return at;
}

Result<ContractPhase> stored_phase(const json& object, const char* key, const std::string& where) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, stored_string(object, key, where));
  for (ContractPhase phase : kStoredPhases) {
    if (contract_phase_name(phase) == text) return phase;
  }
  return invalid_argument("unknown phase '" + text + "'", where + key);
}

Result<ContractTransition> stored_transition(const json& item, const std::string& where) {
  if (!item.is_object()) return invalid_argument("expected an object", where);
  ContractTransition step;
  ALLOT_ASSIGN_OR_RETURN(const std::string action, stored_string(item, "action", where + "."));
  bool known = false;
  for (ContractAction a : kStoredActions) {
    if (contract_action_name(a) == action) step.action = a, known = true;
  }
  if (!known) return invalid_argument("unknown action '" + action + "'", where + ".action");
  ALLOT_ASSIGN_OR_RETURN(step.from, stored_phase(item, "from", where + "."));
  ALLOT_ASSIGN_OR_RETURN(step.to, stored_phase(item, "to", where + "."));
  ALLOT_ASSIGN_OR_RETURN(step.by, stored_string(item, "by", where + "."));
  ALLOT_ASSIGN_OR_RETURN(step.at, stored_time(item, "at", where + "."));
  ALLOT_ASSIGN_OR_RETURN(step.reason, stored_string(item, "reason", where + "."));
  return step;
}

}  // namespace

json contract_status_json(const ContractStatus& status) {
  json history = json::array();
  for (const ContractTransition& step : status.history) {
    history.push_back({{"action", contract_action_name(step.action)},
                       {"from", contract_phase_name(step.from)},
                       {"to", contract_phase_name(step.to)},
                       {"by", step.by},
                       {"at", format_rfc3339(step.at)},
                       {"reason", step.reason}});
  }
  json out = {{"phase", contract_phase_name(status.phase)},
              {"requestedBy", status.requested_by},
              {"approvedBy", status.approved_by},
              {"history", std::move(history)}};
  if (status.reviewed_at) out["reviewedAt"] = format_rfc3339(*status.reviewed_at);
  return out;
}

json contract_standing_json(const ContractStandingView& standing) {
  json out = contract_status_json(standing.status);
  if (standing.review_due) out["reviewDue"] = format_rfc3339(*standing.review_due);
  if (standing.grace_ends) out["reviewGraceEnds"] = format_rfc3339(*standing.grace_ends);
  return out;
}

Result<ContractStatus> decode_contract_status(const json& object) {
  if (!object.is_object()) return invalid_argument("a contract status is an object", "status");
  ContractStatus status;
  ALLOT_ASSIGN_OR_RETURN(status.phase, stored_phase(object, "phase", ""));
  ALLOT_ASSIGN_OR_RETURN(status.requested_by, stored_string(object, "requestedBy", ""));
  ALLOT_ASSIGN_OR_RETURN(status.approved_by, stored_string(object, "approvedBy", ""));
  if (object.contains("reviewedAt")) {
    ALLOT_ASSIGN_OR_RETURN(status.reviewed_at, stored_time(object, "reviewedAt", ""));
  }
  const auto history = object.find("history");
  if (history == object.end() || !history->is_array()) {
    return invalid_argument("expected an array", "history");
  }
  for (size_t i = 0; i < history->size(); ++i) {
    ALLOT_ASSIGN_OR_RETURN(ContractTransition step,
                           stored_transition((*history)[i], "history[" + std::to_string(i) + "]"));
    status.history.push_back(std::move(step));
  }
  return status;
}

}  // namespace allot
