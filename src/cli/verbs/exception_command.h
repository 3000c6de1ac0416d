// `allot exception ACTION NAME --reason R` (issue 15, item 6;
// docs/governance.md): the approver's decision on a requested
// PolicyException.
//   approve|reject NAME --reason R   POST /api/v1/policyexceptions/NAME/ACTION
// Requests are made by applying the PolicyException (`allot apply -f`);
// `allot get exceptions` shows their STATE.
//
// Contract: prints "policyexception/NAME <phase>" after a decision; errors
// from allotd are reported as every server verb reports them (server_verb.h):
// 403 exit 2 for a caller who is not the named approver (or is its owner or
// requester), 409 for a decision on an exception that is not Requested.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_exception_command();

}  // namespace allot::cli
