// ServerVerb: what every verb that talks to allotd shares: the --server
// flag, opening the client, and reporting errors.
//
// Contract: add_server_flag() declares `--server URL` on a verb.
// open_api_client() resolves the address (client/server_address.h: flag, then
// ALLOT_SERVER, then the config file, then the default) and returns a client
// for it. report_error() prints "error: <message> (at <details>)" on io.err,
// then "hint: ..." when connection_hint() has one, and returns the exit code
// of exit_codes.h. Not thread-safe (CLI11 binds the flag to `server`).
#pragma once

#include <string>

#include "base/result.h"
#include "cli/client/api_client.h"
#include "cli/verbs/command.h"

namespace allot::cli {

void add_server_flag(CLI::App& subcommand, std::string& server);

Result<ApiClient> open_api_client(const std::string& server_flag);

// "message (at details)", or just "message" without details.
std::string error_text(const Status& status);

// REQUIRES: !status.ok().
int report_error(CliIo& io, const Status& status);

}  // namespace allot::cli
