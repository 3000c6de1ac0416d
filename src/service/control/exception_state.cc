#include "service/control/exception_state.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "api/exception_status_json.h"
#include "authz/builtin_roles.h"
#include "governance/exception_lifecycle.h"

namespace allot {
namespace {

const PolicyException* find_policy_exception(const Policy& policy, const std::string& name) {
  for (const PolicyException& exception : policy.exceptions) {
    if (exception.meta.name == name) return &exception;
  }
  return nullptr;
}

std::string exception_team_namespace(const Policy& applied, const Policy& current,
                                     const std::string& team) {
  const Team* found = applied.find_team(team);
  if (found == nullptr) found = current.find_team(team);
  if (found == nullptr) return team;
  return found->namespace_name.empty() ? found->meta.name : found->namespace_name;
}

}  // namespace

bool is_exception_administrator(const Principal& caller) {
  return caller.admin ||
         std::find(caller.groups.begin(), caller.groups.end(), kAdminsGroup) != caller.groups.end();
}

bool is_exception_party(const Principal& caller, const std::string& who) {
  if (who.empty()) return false;
  return caller.subject == who ||
         std::find(caller.groups.begin(), caller.groups.end(), who) != caller.groups.end();
}

Status check_exception_appliers(const AccessControl& access, const Principal& caller,
                                const Policy& applied, const Policy& current) {
  if (is_exception_administrator(caller)) return {};
  for (const PolicyException& exception : applied.exceptions) {
    if (is_exception_party(caller, exception.spec.owner)) continue;
    const std::string& name = exception.meta.name;
    if (access.authorize(caller, "update", "policyexceptions", "", name).ok()) continue;
    const std::string ns = exception_team_namespace(applied, current, exception.spec.team);
    const Status in_team = access.authorize(caller, "update", "policyexceptions", ns, name);
    if (in_team.ok()) continue;
    return Status(ErrorCode::kPermissionDenied,
                  "'" + caller.subject + "' may not apply PolicyException '" + name +
                      "': its owner, a team-admin of team '" + exception.spec.team +
                      "' or its approver applies it (" + in_team.message() + ")",
                  "PolicyException/" + name);
  }
  return {};
}

Result<ExceptionStatusChanges> exception_status_changes(const ExceptionStatuses& statuses,
                                                        const Policy& next,
                                                        const std::vector<PolicyChange>& changes,
                                                        const Principal& caller, Timestamp now) {
  ExceptionStatusChanges out;
  for (const PolicyChange& change : changes) {
    if (change.kind != "PolicyException" || change.action == "unchanged") continue;
    const PolicyException* exception = find_policy_exception(next, change.name);
    if (exception == nullptr) continue;
    const auto stored = statuses.find(change.name);
    const std::optional<ExceptionStatus> before =
        stored == statuses.end() ? std::nullopt : std::optional<ExceptionStatus>(stored->second);
    const bool by_approver =
        is_exception_administrator(caller) || is_exception_party(caller, exception->spec.approver);
    Result<ExceptionStatus> status = exception_applied(before, caller.subject, by_approver, now);
    if (!status.ok()) {
      return Status(status.status().code(),
                    "PolicyException '" + change.name + "': " + status.status().message(),
                    "PolicyException/" + change.name + "." + status.status().details());
    }
    out.put[change.name] = std::move(status).value();
  }
  return out;
}

ExceptionStatus exception_standing(const ExceptionStatuses& statuses, const std::string& name) {
  const auto it = statuses.find(name);
  if (it != statuses.end()) return it->second;
  ExceptionStatus approved;
  approved.phase = ExceptionPhase::kApproved;
  return approved;
}

ExceptionStatus exception_standing_at(const ExceptionStatuses& statuses, const Policy& policy,
                                      const std::string& name, Timestamp now) {
  ExceptionStatus standing = exception_standing(statuses, name);
  const PolicyException* exception = find_policy_exception(policy, name);
  return exception == nullptr ? standing
                              : exception_status_at(std::move(standing), exception->spec, now);
}

std::set<std::string> withheld_exceptions(const ExceptionStatuses& statuses) {
  std::set<std::string> withheld;
  for (const auto& [name, status] : statuses) {
    if (!exception_approved(status)) withheld.insert(name);
  }
  return withheld;
}

PolicyState policy_under_exception_statuses(PolicyState policy, const ExceptionStatuses& statuses,
                                            Timestamp now) {
  std::set<std::string> withheld = withheld_exceptions(statuses);
  if (withheld == policy.withheld_exceptions() && !policy.exceptions_changed_at(now)) return policy;
  PolicyState next = policy.with_withheld_exceptions(std::move(withheld));
  Result<PolicyState> applied = next.with_exceptions_at(now);
  if (!applied.ok()) return policy;
  return std::move(applied).value();
}

void put_exception_statuses(const ExceptionStatusChanges& changes, WriteBatch& batch) {
  for (const auto& [name, status] : changes.put) {
    batch.put_objects.push_back(
        {std::string(kExceptionStatusKind), name, exception_status_json(status).dump()});
  }
  for (const std::string& name : changes.erase) {
    batch.delete_objects.push_back({std::string(kExceptionStatusKind), name});
  }
}

void install_exception_statuses(const ExceptionStatusChanges& changes,
                                ExceptionStatuses& statuses) {
  for (const auto& [name, status] : changes.put) statuses[name] = status;
  for (const std::string& name : changes.erase) statuses.erase(name);
}

}  // namespace allot
