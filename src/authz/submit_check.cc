#include "authz/submit_check.h"

#include <algorithm>
#include <string>

#include "authz/resource_catalog.h"
#include "authz/rule_text.h"

namespace allot {
namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

Decision authorize_submit(const Authorizer& authorizer, const Principal& principal,
                          const Workload& workload, const Team& team) {
  const std::string& team_namespace =
      team.namespace_name.empty() ? team.meta.name : team.namespace_name;
  const AccessRequest create{"create", kAllotApiGroup, "workloads", workload.meta.namespace_name,
                             workload.meta.name};
  Decision decision = authorizer.authorize(authorizer.resolve(principal), create);
  if (!decision.allowed) return decision;
  AccessRequest submit = create;
  submit.verb = "submit";
  const std::string refused =
      describe_caller(principal) + " cannot " + describe_request(submit) + ": ";
  if (workload.meta.namespace_name != team_namespace) {
    return {false,
            {},
            {},
            {},
            refused + "team " + in_quotes(team.meta.name) + " works in namespace " +
                in_quotes(team_namespace)};
  }
  const std::string& wanted = workload.spec.priority_class;
  const std::vector<std::string>& allowed = team.allowed_priority_classes;
  if (!wanted.empty() && !allowed.empty() &&
      std::find(allowed.begin(), allowed.end(), wanted) == allowed.end()) {
    return {false,
            {},
            {},
            {},
            refused + "team " + in_quotes(team.meta.name) + " does not allow PriorityClass " +
                in_quotes(wanted) + " (it allows " + listed(allowed) + ")"};
  }
  return decision;
}

}  // namespace allot
