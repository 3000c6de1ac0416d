// `allot audit verify [--dir D --checkpoints C --key K] [-o json]`: checks the
// audit log offline (docs/governance.md): the hash chain of every record
// across its files and every signed checkpoint, and says what was modified,
// removed, reordered, inserted or truncated, with the record's sequence,
// file and line, and how many tail records no checkpoint covers yet. The
// defaults fit a run inside allotd's data folder: D = audit, C = the
// folder next to D named audit-checkpoints, K = audit-key.pub next to D.
// Exit 0 when the log verifies, 1 when a problem was found, 2 when a file
// cannot be read.
//
// `allot audit log [--user U --verb V --namespace N --since T --until T
// --limit N] [-o table|json] [--server URL]`: the records of GET
// /api/v1/audit (cluster-admin by default), oldest first, as a table or as
// the EventList itself.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_audit_command();

}  // namespace allot::cli
