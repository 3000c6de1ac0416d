// `allot login` and `allot whoami` (issue 11): a login exchanges a credential
// (an API token from --token-file, or with --local a directory user's name
// and the password on standard input) for a session of allotd (POST
// /api/v1/sessions), bound to one team and one role when asked, and saves it
// for the server (client/credentials.h, 0600); whoami shows who the CLI is to
// allotd.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_login_command();
std::unique_ptr<Command> make_whoami_command();

}  // namespace allot::cli
