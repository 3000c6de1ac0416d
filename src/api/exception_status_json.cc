#include "api/exception_status_json.h"

#include <array>
#include <string>

#include "api/rfc3339.h"

namespace allot {
namespace {

using ExceptionJson = nlohmann::json;

constexpr std::array kExceptionStoredPhases = {
    ExceptionPhase::kRequested, ExceptionPhase::kApproved, ExceptionPhase::kRejected};
constexpr std::array kExceptionStoredActions = {
    ExceptionAction::kRequest, ExceptionAction::kApprove, ExceptionAction::kReject};

Result<std::string> exception_stored_string(const ExceptionJson& object, const char* key,
                                            const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    return invalid_argument("expected a string", where + key);
  }
  return it->get<std::string>();
}

Result<ExceptionPhase> exception_stored_phase(const ExceptionJson& object, const char* key,
                                              const std::string& where) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, exception_stored_string(object, key, where));
  for (ExceptionPhase phase : kExceptionStoredPhases) {
    if (exception_phase_name(phase) == text) return phase;
  }
  return invalid_argument("unknown phase '" + text + "'", where + key);
}

Result<ExceptionTransition> exception_stored_step(const ExceptionJson& item,
                                                  const std::string& where) {
  if (!item.is_object()) return invalid_argument("expected an object", where);
  ExceptionTransition step;
  ALLOT_ASSIGN_OR_RETURN(const std::string action,
                         exception_stored_string(item, "action", where + "."));
  bool known = false;
  for (ExceptionAction a : kExceptionStoredActions) {
    if (exception_action_name(a) == action) step.action = a, known = true;
  }
  if (!known) return invalid_argument("unknown action '" + action + "'", where + ".action");
  ALLOT_ASSIGN_OR_RETURN(step.from, exception_stored_phase(item, "from", where + "."));
  ALLOT_ASSIGN_OR_RETURN(step.to, exception_stored_phase(item, "to", where + "."));
  ALLOT_ASSIGN_OR_RETURN(step.by, exception_stored_string(item, "by", where + "."));
  ALLOT_ASSIGN_OR_RETURN(const std::string at, exception_stored_string(item, "at", where + "."));
  Result<Timestamp> parsed = parse_rfc3339(at);
  if (!parsed.ok()) return invalid_argument(parsed.status().message(), where + ".at");
  step.at = *parsed;
  ALLOT_ASSIGN_OR_RETURN(step.reason, exception_stored_string(item, "reason", where + "."));
  return step;
}

}  // namespace

ExceptionJson exception_status_json(const ExceptionStatus& status) {
  ExceptionJson history = ExceptionJson::array();
  for (const ExceptionTransition& step : status.history) {
    history.push_back({{"action", exception_action_name(step.action)},
                       {"from", exception_phase_name(step.from)},
                       {"to", exception_phase_name(step.to)},
                       {"by", step.by},
                       {"at", format_rfc3339(step.at)},
                       {"reason", step.reason}});
  }
  ExceptionJson out = {{"phase", exception_phase_name(status.phase)},
                       {"requestedBy", status.requested_by},
                       {"history", std::move(history)}};
  if (!status.decided_by.empty()) out["decidedBy"] = status.decided_by;
  return out;
}

Result<ExceptionStatus> decode_exception_status(const ExceptionJson& object) {
  if (!object.is_object()) return invalid_argument("expected an object", "status");
  ExceptionStatus status;
  ALLOT_ASSIGN_OR_RETURN(status.phase, exception_stored_phase(object, "phase", "status."));
  ALLOT_ASSIGN_OR_RETURN(status.requested_by,
                         exception_stored_string(object, "requestedBy", "status."));
  if (object.contains("decidedBy")) {
    ALLOT_ASSIGN_OR_RETURN(status.decided_by,
                           exception_stored_string(object, "decidedBy", "status."));
  }
  const auto history = object.find("history");
  if (history == object.end() || !history->is_array()) {
    return invalid_argument("expected an array", "status.history");
  }
  for (size_t i = 0; i < history->size(); ++i) {
    ALLOT_ASSIGN_OR_RETURN(
        ExceptionTransition step,
        exception_stored_step((*history)[i], "status.history[" + std::to_string(i) + "]"));
    status.history.push_back(std::move(step));
  }
  return status;
}

}  // namespace allot
