// `allot top [--team T] [-o json|yaml] [--server URL]`: quota and usage per
// team, flavor and resource (GET /api/v1/top), as the table of output/top_table.h
// or, with -o, the answer itself ({"teams": [...]}).
//
// Contract: --team keeps that team's rows (filtered here: the API takes no
// query parameter for it).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_top_command();

}  // namespace allot::cli
