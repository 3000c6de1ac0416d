// ServerVerb: what every verb that talks to allotd shares: the --server
// flag, opening the client, and reporting errors.
//
// Contract: add_server_flags() declares `--server URL` and
// `--request-timeout DURATION` (default 30s: how long one request may take,
// connecting included; the connect alone is capped at 5s) on a verb.
// open_api_client() resolves the address (client/server_address.h: flag, then
// ALLOT_SERVER, then the config file, then the default) and returns a client
// for it; a bad timeout is kInvalidArgument naming the flag. report_error() prints "error:
// <message> (at <details>)" on io.err, then "hint: ..." when connection_hint() has one, and returns
// the exit code of exit_codes.h. Not thread-safe (CLI11 binds the flag to `server`).
#pragma once

#include <string>

#include "base/result.h"
#include "cli/client/api_client.h"
#include "cli/verbs/command.h"

namespace allot::cli {

struct ServerFlags {
  std::string server;
  std::string token;       // --token; else ALLOT_TOKEN, else the saved login (client/credentials.h)
  bool anonymous = false;  // send no token (the login itself)
  std::string request_timeout = "30s";
};

void add_server_flags(CLI::App& subcommand, ServerFlags& flags);

Result<ApiClient> open_api_client(const ServerFlags& flags);

// "message (at details)", or just "message" without details.
std::string error_text(const Status& status);

// REQUIRES: !status.ok().
int report_error(CliIo& io, const Status& status);

}  // namespace allot::cli
