// `allot apply -f FILE [-f FILE ...] [--dry-run] [--server URL]`: sends the
// manifests of every FILE (`-` = standard input), joined into one YAML
// stream, to POST /api/v1/apply[?dryRun=true] and prints the changes
// (output/apply_output.h: "team.allot/research configured", then the diff).
//
// Contract: the files are read before anything is sent; the batch is all or
// nothing on the server. Errors: an unreadable file or a manifest allotd
// rejects print "error: <message> (at <details>)" and exit 2; an unreachable
// server exits 1 (exit_codes.h).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_apply_command();

}  // namespace allot::cli
