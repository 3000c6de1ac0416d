// `allot report usage --from T --to T [--by team,project,user,workload,flavor,day]
// [--idle separate|share-even|share-nominal] [-o table|csv|json] [--server URL]`:
// the usage report of the metering ledger (GET /api/v1/reports/usage,
// docs/cost.md): GPU-, CPU- and memory-GiB-hours, own vs borrowed, cost and
// idle capacity over [from, to), as a table (rounded), CSV or the JSON answer
// itself (unrounded). Times are RFC 3339 ("2026-12-01T00:00:00Z").
//
// `allot report backend-usage --from T --to T [-o table|json]`: each team's
// metered GPU time beside the backend's own accounting of its account (Slurm:
// sreport), over the whole hours around [from, to)
// (GET /api/v1/reports/usage/backend).
//
// Contract: the server checks the parameters (400 names the one at fault)
// and who may see what (a team's members see their team only). --by, --idle
// and `-o csv` belong to `usage` alone: given with backend-usage they are a
// usage error (exit 2), nothing is asked of the server.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_report_command();

}  // namespace allot::cli
