// `allot auth token [--exec-credential] [--server URL]`: the session `allot
// login` saved for the server, for other programs: the bare token, or
// kubectl's ExecCredential JSON (output/exec_credential.h) so that kubectl
// uses the same login.
//
// Contract: reads the saved session of the server (client/credentials.h)
// and prints it on one line of stdout. No saved login, or one that has
// expired (by the injected clock, CliIo::login), is kUnauthenticated with
// what to run; nothing is printed on stdout then (kubectl would read it).
// Part of `allot auth` (auth_command.h), which dispatches to it.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_auth_token_command();

}  // namespace allot::cli
