// PolicyService's read-only reports (policy_service.h): a signal's history and
// each team's quota usage (`allot top`).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "authz/builtin_roles.h"
#include "authz/rbac_validation.h"
#include "governance/contract_revocation.h"
#include "service/control/budget_visibility.h"
#include "service/control/caller_rights.h"
#include "service/control/control_audit.h"
#include "service/control/metering.h"
#include "service/control/policy_installation.h"
#include "service/control/policy_objects.h"
#include "service/control/policy_service.h"
#include "service/control/quota_usage.h"
#include "service/control/rbac_write_check.h"
#include "service/control/review_notices.h"
#include "service/control/workload_transitions.h"

namespace allot {

Result<std::vector<std::string>> PolicyService::signal_history(const Principal& caller,
                                                               const std::string& name) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "get", "signals", "", name));
  const CommittedRead read(cluster_);
  const ServerState& state = cluster_.view();
  std::vector<std::string> events = allot::signal_history(state.signals, name);
  if (events.empty() && !state.policy.documents().contains(document_key("Signal", "", name))) {
    return not_found("Signal '" + name + "' does not exist");
  }
  return events;
}

Result<TopView> PolicyService::top(const Principal& caller) const {
  // Quota usage per team is aggregate numbers (no workload, user or command):
  // a caller who may list workloads anywhere may read every team's (issue 11,
  // item 5); one with no binding sees nothing.
  const VisibleNamespaces visible = workload_visibility(cluster_.access(), caller);
  if (!visible.everywhere && visible.namespaces.empty()) {
    return Status(ErrorCode::kPermissionDenied,
                  "User \"" + caller.subject +
                      "\" cannot read quota usage: no binding lets it list workloads anywhere");
  }
  TopView view;
  const CommittedRead read(cluster_);
  // Every team is listed, a zero-quota one included (quota_usage.h).
  if (cluster_.view().policy.compiled()) {
    view.teams = quota_usage(cluster_.view(), QuotaRows::kEveryTeam);
  }
  return view;
}

}  // namespace allot
