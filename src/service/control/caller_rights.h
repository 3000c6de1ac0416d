// Caller rights: the one check every use case of the control plane makes
// before it reads or changes anything.
//
// Contract: deny by default. Until the authz layer exists (RBAC over
// namespaces, separating seeing from acting), a caller may do something only
// when it is an admin (Principal::admin); everyone else gets
// kPermissionDenied naming the action. allotd serves every request as
// Principal::anonymous_admin() until identity exists, so nothing a user can
// see changes. Pure.
#pragma once

#include <initializer_list>
#include <string_view>

#include "base/status.h"
#include "model/principal.h"

namespace allot {

// `action` says what was asked, in parts joined for the error only
// ({"cancel workload ", ns, "/", name}): an allowed call builds no text.
Status authorize(const Principal& caller, std::initializer_list<std::string_view> action);

}  // namespace allot
