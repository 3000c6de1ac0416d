// The words of authz's answers: rules, subjects, callers and requests as a
// person reads them in a Decision's `why`, a 403 or `allot auth can-i`.
//
// Contract: pure; every function returns new text.
//   describe_rule:    `verbs [create, cancel] on [workloads] in apiGroups [allot]`
//   describe_subject: `User "ana"`, `Group "vision"`, `ServiceAccount "vision/ci"`
//   describe_caller:  the same for a principal (its subject tells the kind)
//   describe_request: `cancel workloads "train-1" in namespace "vision"`,
//                     `delete nodes at cluster scope`
#pragma once

#include <string>
#include <string_view>

#include "authz/access_request.h"
#include "model/principal.h"
#include "model/rbac/policy_rule.h"
#include "model/rbac/subject.h"

namespace allot {

// `text` in double quotes, as names appear in every answer: "train-1".
std::string in_quotes(std::string_view text);

std::string describe_rule(const PolicyRule& rule);
std::string describe_subject(const Subject& subject);
std::string describe_caller(std::string_view subject);
inline std::string describe_caller(const Principal& principal) {
  return describe_caller(principal.subject);
}
std::string describe_request(const AccessRequest& request);

// The same, appended to `out` (the authorizer builds a decision's text in one string).
void append_caller(std::string& out, std::string_view subject);
void append_request(std::string& out, const AccessRequest& request);

// "system:serviceaccount:NS:NAME" split into NS and NAME; false for any other subject.
bool split_service_account(std::string_view subject, std::string_view& namespace_name,
                           std::string_view& name);

}  // namespace allot
