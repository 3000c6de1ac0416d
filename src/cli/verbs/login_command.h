// `allot login` and `allot whoami` (issue 11): a login exchanges a credential
// for a session of allotd (POST /api/v1/sessions), bound to one team and one
// role when asked, and saves it for the server (client/credentials.h, 0600);
// whoami shows who the CLI is to allotd. The credential is the API token of
// --token-file, a directory user's name and the password on standard input
// (--local), or (--oidc, and the default without either) the ID token of the
// OIDC device flow at allotd's issuer (device_login.h).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_login_command();
std::unique_ptr<Command> make_whoami_command();

}  // namespace allot::cli
