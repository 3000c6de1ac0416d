// Credentials: which bearer token the CLI sends to allotd.
//
// Contract: the first of these that is set wins: the --token flag, the
// ALLOT_TOKEN environment variable, then the session `allot login` saved
// for that server. Sessions are saved in $ALLOT_CREDENTIALS, else
// $XDG_CONFIG_HOME/allot/credentials.json, else
// $HOME/.config/allot/credentials.json: a JSON object keyed by server URL,
// written atomically with mode 0600 (the file is a secret; its folder is
// made 0700). A missing file means no saved session; an unreadable or
// malformed one is an error naming the file. No token is ever printed or
// put in an error. resolve_token() is pure; the others touch the file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "cli/client/server_address.h"

namespace allot::cli {

inline constexpr std::string_view kTokenEnvVar = "ALLOT_TOKEN";
inline constexpr std::string_view kCredentialsEnvVar = "ALLOT_CREDENTIALS";

struct SavedSession {
  std::string token;
  std::string expires_at;  // RFC 3339, as allotd said
  std::string subject;
  std::vector<std::string> groups;
  std::string team;
  std::string role;
};

// "" when neither ALLOT_CREDENTIALS, XDG_CONFIG_HOME nor HOME is set.
std::string credentials_file_path(const Environment& env);

Result<std::optional<SavedSession>> read_saved_session(const std::string& path,
                                                       const std::string& server_url);
Status save_session(const std::string& path, const std::string& server_url,
                    const SavedSession& session);

// flag > env ALLOT_TOKEN > `saved`; "" when none.
std::string resolve_token(const std::string& flag, const Environment& env,
                          const std::optional<SavedSession>& saved);

// The same from the process environment and the credentials file.
Result<std::string> bearer_token(const std::string& flag, const std::string& server_url);

// The process environment, as Environment.
Environment process_environment();

}  // namespace allot::cli
