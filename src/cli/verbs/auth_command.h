// `allot auth can-i VERB RESOURCE [NAME] [-n NS] [--as USER]` answers like
// kubectl's: "yes" (exit 0) or "no" (exit 1), with allotd's reason
// (POST /api/v1/accessreviews). `allot auth token [--exec-credential]`
// prints the saved login (auth_token_command.h). `allot token rotate ID` replaces an API
// token and prints the new one once (POST /api/v1/tokens/ID/rotate).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_auth_command();
std::unique_ptr<Command> make_token_command();

}  // namespace allot::cli
