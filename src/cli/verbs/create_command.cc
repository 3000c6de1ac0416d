#include "cli/verbs/create_command.h"

#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "base/time.h"
#include "cli/client/api_paths.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

class CreateCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.require_subcommand(1);
    account_ = subcommand.add_subcommand("serviceaccount", "Create a team's service account");
    account_->alias("sa");
    add_target(*account_, "the service account's name (a DNS-1123 label)");
    token_ = subcommand.add_subcommand(
        "token", "Issue an API token for a service account and print it (shown once)");
    add_target(*token_, "the service account");
    token_->add_option("--duration", duration_,
                       "how long the token lasts (10m to 3650d; default: until revoked)");
  }

  int run(CliIo& io) override {
    const Status done = token_->parsed() ? issue_token(io) : create_account(io);
    if (!done.ok()) return report_error(io, done);
    return kExitOk;
  }

 private:
  void add_target(CLI::App& app, const char* what) {
    app.add_option("name", name_, what)->required();
    app.add_option("-n,--namespace", namespace_, "the team's namespace")->required();
    add_server_flags(app, server_);
  }

  Status create_account(CliIo& io) {
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_RETURN_IF_ERROR(client
                              .post(service_accounts_path(namespace_),
                                    nlohmann::json{{"name", name_}}.dump(), kJsonContentType)
                              .status());
    io.out << "serviceaccount/" << name_ << " created\n";
    return {};
  }

  Status issue_token(CliIo& io) {
    nlohmann::json request = nlohmann::json::object();
    if (!duration_.empty()) {
      ALLOT_ASSIGN_OR_RETURN(const Duration duration, parse_duration(duration_));
      if (duration.ms() < 1000)
        return invalid_argument("--duration must be at least 1s", "--duration");
      request["expirationSeconds"] = duration.ms() / 1000;
    }
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse response,
                           client.post(service_account_path(namespace_, name_, "tokens"),
                                       request.dump(), kJsonContentType));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json answer, response.json());
    const std::string token = answer.value("token", "");
    if (token.empty()) return Status(ErrorCode::kInternal, "allotd answered without a token");
    io.out << token << "\n";
    io.err << "token " << answer.value("id", "") << " of serviceaccount/" << name_
           << " (shown once)\n";
    return {};
  }

  CLI::App* account_ = nullptr;
  CLI::App* token_ = nullptr;
  std::string name_;
  std::string namespace_;
  std::string duration_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_create_command() { return std::make_unique<CreateCommand>(); }

}  // namespace allot::cli
