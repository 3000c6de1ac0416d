#include "service/control/exception_service.h"

#include <utility>
#include <vector>

#include "api/exception_status_json.h"
#include "governance/exception_lifecycle.h"
#include "service/control/exception_state.h"
#include "service/control/policy_installation.h"
#include "service/control/policy_objects.h"
#include "service/control/quota_history.h"

namespace allot {
namespace {

const PolicyException* decided_exception(const Policy& policy, const std::string& name) {
  for (const PolicyException& exception : policy.exceptions) {
    if (exception.meta.name == name) return &exception;
  }
  return nullptr;
}

// The named approver, or a caller RBAC lets decide at cluster scope.
Status authorize_exception_decision(AccessControl& access, const Principal& caller,
                                    const PolicyException& exception, ExceptionAction action) {
  if (is_exception_party(caller, exception.spec.approver)) return {};
  const Status allowed = access.authorize(caller, std::string(exception_action_name(action)),
                                          "policyexceptions", "", exception.meta.name);
  if (allowed.ok()) return {};
  return Status(ErrorCode::kPermissionDenied,
                "only '" + exception.spec.approver + "', the approver PolicyException '" +
                    exception.meta.name + "' names, or a cluster-admin decides it, not '" +
                    caller.subject + "'",
                "PolicyException/" + exception.meta.name + ".spec.approver");
}

}  // namespace

Result<PolicyObjectView> ExceptionService::decide(const Principal& caller, const std::string& name,
                                                  ExceptionAction action,
                                                  const std::string& reason) {
  Result<PolicyObjectView> decided = not_found("PolicyException '" + name + "' does not exist");
  const Status done = policies_.serialized([&] {
    decided = decide_now(caller, name, action, reason);
    return decided.status();
  });
  if (!done.ok()) return done;
  return decided;
}

Result<PolicyObjectView> ExceptionService::decide_now(const Principal& caller,
                                                      const std::string& name,
                                                      ExceptionAction action,
                                                      const std::string& reason) {
  PolicyObjectView view;
  {
    ClusterWriter writer(cluster_);
    ChangeLock lock(cluster_, writer);
    ServerState& state = cluster_.state();
    const DocumentKey key{"PolicyException", name};
    const auto document = state.policy.documents().find(key);
    const PolicyException* exception = decided_exception(state.policy.policy(), name);
    if (document == state.policy.documents().end() || exception == nullptr) {
      return not_found("PolicyException '" + name + "' does not exist");
    }
    ALLOT_RETURN_IF_ERROR(
        authorize_exception_decision(cluster_.access(), caller, *exception, action));
    const Timestamp now = clock_.now();
    ALLOT_ASSIGN_OR_RETURN(
        ExceptionStatus next,
        exception_decision(exception_standing(state.exception_statuses, name), exception->spec,
                           action, caller.subject, reason, now));
    WriteBatch batch;
    batch.put_objects.push_back(
        {std::string(kExceptionStatusKind), name, exception_status_json(next).dump()});
    // The view first: installing the policy replaces the documents `document` points into.
    view = object_view(key, document->second);
    view.exception = next;
    state.exception_statuses[name] = std::move(next);
    install_policy(state,
                   policy_under_exception_statuses(state.policy, state.exception_statuses, now));
    // A quota relaxation approved (or its end) changes the team's quota line.
    std::vector<TeamQuotaInterval> quotas =
        quota_changes(state.metering.quotas, state.policy.compiled().get(), now);
    for (const TeamQuotaInterval& q : quotas) batch.put_objects.push_back(team_quota_object(q));
    apply_quota_changes(std::move(quotas), state.metering.quotas);
    lock.queue(std::move(batch), {});
  }
  signal_.wake();
  return view;
}

}  // namespace allot
