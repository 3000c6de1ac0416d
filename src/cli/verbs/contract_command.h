// `allot contract ACTION ...` (issue 15, item 3; docs/governance.md):
//   create -f FILE                  applies the Contract manifest(s) (a Draft,
//                                   requested by the caller): POST /api/v1/apply
//   approve|activate|review|renew|revoke NAME --reason R
//                                   POST /api/v1/contracts/NAME/ACTION
//   get [NAME] [-o table|json]      the contracts and their phase
//   describe NAME                   every field, the review schedule, the history
//
// Contract: prints "contract/NAME <phase>" after a transition; errors from
// allotd are reported as every server verb reports them (server_verb.h):
// 403 exit 2 for a caller without the role or approving their own request,
// 409 for a transition from the wrong phase.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_contract_command();

}  // namespace allot::cli
