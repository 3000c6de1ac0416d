#include "cli/verbs/login_command.h"

#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "base/time.h"
#include "cli/client/credentials.h"
#include "cli/client/server_address.h"
#include "cli/verbs/device_login.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/input_files.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

// The first line of a token file, without surrounding space.
Result<std::string> token_from_file(const std::string& path, CliIo& io) {
  ALLOT_ASSIGN_OR_RETURN(std::string text, read_input_file(path, io));
  const size_t end = text.find_first_of("\r\n");
  if (end != std::string::npos) text.resize(end);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (text.empty()) return invalid_argument("the token file is empty", path);
  return text;
}

SavedSession session_of(const nlohmann::json& answer) {
  SavedSession session;
  session.token = answer.value("token", "");
  session.expires_at = answer.value("expiresAt", "");
  session.subject = answer.value("subject", "");
  session.groups = answer.value("groups", std::vector<std::string>());
  session.team = answer.value("team", "");
  session.role = answer.value("role", "");
  return session;
}

// The local provider's credential: the user name, and the password as the
// first line of standard input (never an argument: ps would show it).
Result<nlohmann::json> local_credential(const std::string& user_name, bool password_stdin,
                                        CliIo& io) {
  if (user_name.empty() || !password_stdin) {
    return invalid_argument("--local needs --username and --password-stdin", "--local");
  }
  ALLOT_ASSIGN_OR_RETURN(std::string text, read_input_file("-", io));
  const size_t end = text.find_first_of("\r\n");
  if (end != std::string::npos) text.resize(end);
  if (text.empty()) return invalid_argument("no password on standard input", "--password-stdin");
  return nlohmann::json{{"username", user_name}, {"password", std::move(text)}};
}

class LoginCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    CLI::Option* token_file =
        subcommand.add_option("--token-file", token_file_,
                              "file whose first line is an API token (DATA/admin-token; a service "
                              "account sends its token as it is, with --token or ALLOT_TOKEN); - "
                              "reads standard input");
    CLI::Option* oidc =
        subcommand
            .add_flag("--oidc", oidc_,
                      "log in at allotd's OIDC identity provider with the device flow (the "
                      "default without --token-file or --local)")
            ->excludes(token_file);
    CLI::Option* local = subcommand.add_flag(
        "--local", local_, "log in to allotd's local provider (a directory user's password)");
    token_file->excludes(local);
    oidc->excludes(local);
    subcommand.add_option("--username", user_name_, "with --local: the user name")->needs(local);
    subcommand
        .add_flag("--password-stdin", password_stdin_,
                  "with --local: read the password from the first line of standard input")
        ->needs(local);
    subcommand.add_option("--team", team_, "the team (namespace) the session is bound to");
    subcommand.add_option("--role", role_,
                          "the role the session acts with in that team (without --team: a "
                          "ClusterRole at cluster scope, e.g. contract-approver)");
    subcommand.add_option("--ttl", ttl_, "session lifetime, at most 12h (default 8h)");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Result<SavedSession> session = login(io);
    if (!session.ok()) return report_error(io, session.status());
    io.out << "logged in as " << session->subject;
    if (!session->team.empty()) io.out << " in team " << session->team;
    if (!session->role.empty()) io.out << " as " << session->role;
    io.out << " until " << session->expires_at << "\n";
    return kExitOk;
  }

 private:
  // The credential of the session request: the token file's API token, a
  // directory user's name and password (--local), or an ID token from the
  // OIDC device flow.
  Result<nlohmann::json> credential(CliIo& io, ApiClient& client) {
    if (local_) return local_credential(user_name_, password_stdin_, io);
    if (!token_file_.empty()) {
      ALLOT_ASSIGN_OR_RETURN(const std::string token, token_from_file(token_file_, io));
      return nlohmann::json{{"token", token}};
    }
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse config, client.get("/api/v1/authconfig"));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json answer, config.json());
    ALLOT_ASSIGN_OR_RETURN(IssuerLogin issuer, issuer_login_of(answer, client.base_url()));
    ALLOT_ASSIGN_OR_RETURN(std::string id_token, device_login(std::move(issuer), io.login, io.out));
    return nlohmann::json{{"idToken", std::move(id_token)}};
  }

  Result<SavedSession> login(CliIo& io) {
    ServerFlags anonymous = server_;
    anonymous.anonymous = true;  // the credential goes in the body, not as a bearer
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(anonymous));
    // Checked before anyone is asked to log in.
    std::optional<Duration> ttl;
    if (!ttl_.empty()) {
      ALLOT_ASSIGN_OR_RETURN(ttl, parse_duration(ttl_));
    }
    const std::string path = credentials_file_path(process_environment());
    if (path.empty()) return invalid_argument("set HOME or ALLOT_CREDENTIALS to save the login");
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json request, credential(io, client));
    request["team"] = team_;
    request["role"] = role_;
    if (ttl) request["ttlSeconds"] = ttl->ms() / 1000;
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse response,
                           client.post("/api/v1/sessions", request.dump(), kJsonContentType));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json answer, response.json());
    SavedSession session = session_of(answer);
    ALLOT_ASSIGN_OR_RETURN(const std::string url, server_address(server_.server));
    ALLOT_RETURN_IF_ERROR(save_session(path, url, session));
    return session;
  }

  std::string token_file_;
  bool oidc_ = false;
  bool local_ = false;
  std::string user_name_;
  bool password_stdin_ = false;
  std::string team_;
  std::string role_;
  std::string ttl_;
  ServerFlags server_;
};

class WhoamiCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override { add_server_flags(subcommand, server_); }

  int run(CliIo& io) override {
    const Result<nlohmann::json> me = whoami();
    if (!me.ok()) return report_error(io, me.status());
    io.out << "subject: " << me->value("subject", "") << "\n";
    std::string groups;
    for (const auto& group : me->value("groups", nlohmann::json::array())) {
      groups += (groups.empty() ? "" : ", ") + group.get<std::string>();
    }
    io.out << "groups:  " << groups << "\n";
    const std::string team = me->value("team", "");
    io.out << "team:    " << (team.empty() ? "(every team the bindings allow)" : team) << "\n";
    io.out << "role:    " << me->value("role", "") << "\n";
    return kExitOk;
  }

 private:
  Result<nlohmann::json> whoami() {
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse response, client.get("/api/v1/whoami"));
    return response.json();
  }

  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_login_command() { return std::make_unique<LoginCommand>(); }
std::unique_ptr<Command> make_whoami_command() { return std::make_unique<WhoamiCommand>(); }

}  // namespace allot::cli
