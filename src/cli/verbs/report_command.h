// `allot report usage --from T --to T [--by team,project,user,workload,flavor,day]
// [--idle separate|share-even|share-nominal] [-o table|csv|json] [--server URL]`:
// the usage report of the metering ledger (GET /api/v1/reports/usage,
// docs/cost.md): GPU-, CPU- and memory-GiB-hours, own vs borrowed, cost and
// idle capacity over [from, to), as a table (rounded), CSV or the JSON answer
// itself (unrounded). Times are RFC 3339 ("2026-12-01T00:00:00Z").
//
// Contract: `usage` is the only report so far; the server checks the
// parameters (400 names the one at fault) and who may see what (a team's
// members see their team only).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_report_command();

}  // namespace allot::cli
