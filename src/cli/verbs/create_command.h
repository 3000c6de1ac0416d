// `allot create serviceaccount NAME -n NS` and `allot create token NAME -n NS
// [--duration 24h]`, as kubectl's `create serviceaccount` and `create token`.
//
// Contract:
// - serviceaccount (also: sa) POSTs {"name": NAME} to
//   /api/v1/namespaces/NS/serviceaccounts and prints
//   "serviceaccount/NAME created".
// - token POSTs {} or {"expirationSeconds": N} (--duration: "30m", "24h",
//   "90d"; whole seconds, rounded down) to
//   /api/v1/namespaces/NS/serviceaccounts/NAME/tokens and prints the token
//   alone on one line, as kubectl create token does, so that
//   `TOKEN=$(allot create token ci -n research)` works; allotd shows it this
//   once and keeps only its hash. Its id (for `allot delete token`) is
//   printed on stderr.
// Errors: report_error() (server_verb.h); no token is ever in one.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_create_command();

}  // namespace allot::cli
