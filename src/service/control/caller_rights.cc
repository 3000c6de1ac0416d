#include "service/control/caller_rights.h"

#include <string>

namespace allot {

Status authorize(const Principal& caller, std::initializer_list<std::string_view> action) {
  if (caller.admin) return {};
  std::string what;
  for (std::string_view part : action) what += part;
  return Status(ErrorCode::kPermissionDenied,
                "'" + caller.subject + "' may not " + what +
                    ": no role grants it (only admins may act until RBAC exists)");
}

}  // namespace allot
