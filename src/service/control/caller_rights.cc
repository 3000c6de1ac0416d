#include "service/control/caller_rights.h"

#include <string>

namespace allot {

Status authorize(const Principal& caller, std::string_view action) {
  if (caller.admin) return {};
  return Status(ErrorCode::kPermissionDenied,
                "'" + caller.subject + "' may not " + std::string(action) +
                    ": no role grants it (only admins may act until RBAC exists)");
}

}  // namespace allot
