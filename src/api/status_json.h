// The JSON form of an error, shared by allotd and the CLI (docs/api.md):
// {"code": "invalid_argument", "message": "...", "details": "..."}.
#pragma once

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace allot {

// REQUIRES: !status.ok().
nlohmann::json status_to_json(const Status& status);

}  // namespace allot
