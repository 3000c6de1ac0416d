#include "cli/verbs/auth_token_command.h"

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "api/rfc3339.h"
#include "cli/client/credentials.h"
#include "cli/client/server_address.h"
#include "cli/output/exec_credential.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

struct LiveSession {
  std::string token;
  Timestamp expires_at;
};

class AuthTokenCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_flag("--exec-credential", exec_credential_,
                        "print a kubectl ExecCredential (client.authentication.k8s.io/v1)");
    subcommand
        .add_option("--server", server_,
                    "allotd address whose saved login to print (default as for every verb)")
        ->check(CLI::Validator(
            [](const std::string& value) {
              return value.empty() ? std::string("empty: give allotd's address") : std::string();
            },
            "URL"));
  }

  int run(CliIo& io) override {
    const Result<LiveSession> session = saved_session(io);
    if (!session.ok()) return report_error(io, session.status());
    if (exec_credential_) {
      io.out << exec_credential(session->token, session->expires_at).dump() << "\n";
    } else {
      io.out << session->token << "\n";
    }
    return kExitOk;
  }

 private:
  Result<LiveSession> saved_session(const CliIo& io) const {
    if (io.login.clock == nullptr) {
      return Status(ErrorCode::kInternal, "this allot was built without a clock");
    }
    ALLOT_ASSIGN_OR_RETURN(const std::string url, server_address(server_));
    const std::string path = credentials_file_path(process_environment());
    if (path.empty()) return invalid_argument("set HOME or ALLOT_CREDENTIALS to find the login");
    ALLOT_ASSIGN_OR_RETURN(const std::optional<SavedSession> saved, read_saved_session(path, url));
    if (!saved || saved->token.empty()) {
      return Status(ErrorCode::kUnauthenticated,
                    "no saved login for " + url + ": run allot login --server " + url);
    }
    const Result<Timestamp> expires_at = parse_rfc3339(saved->expires_at);
    if (!expires_at.ok()) {
      return invalid_argument("the saved login's expiry is not an RFC 3339 time", path);
    }
    if (*expires_at <= io.login.clock->now()) {
      return Status(ErrorCode::kUnauthenticated, "the saved login for " + url + " expired at " +
                                                     saved->expires_at +
                                                     ": run allot login --server " + url);
    }
    return LiveSession{saved->token, *expires_at};
  }

  bool exec_credential_ = false;
  std::string server_;
};

}  // namespace

std::unique_ptr<Command> make_auth_token_command() { return std::make_unique<AuthTokenCommand>(); }

}  // namespace allot::cli
