#include "cli/verbs/auth_command.h"

#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/client/api_paths.h"
#include "cli/verbs/auth_token_command.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

class AuthCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.require_subcommand(1);
    CLI::App* can_i = subcommand.add_subcommand("can-i", "Whether an action is allowed");
    can_i->add_option("verb", verb_, "get, list, create, cancel, delete, update, ...")->required();
    can_i->add_option("resource", resource_, "workloads, workloads/logs, teams, nodes, ...")
        ->required();
    can_i->add_option("name", name_, "one object's name");
    can_i->add_option("-n,--namespace", namespace_, "the namespace (team)");
    can_i->add_option("--as", as_, "ask for another user (needs the right to impersonate)");
    can_i->add_option("--as-group", as_groups_, "groups of --as (repeatable)");
    add_server_flags(*can_i, server_);
    token_app_ = subcommand.add_subcommand(
        "token", "Print the saved login's session token (--exec-credential: for kubectl)");
    token_->configure(*token_app_);
  }

  int run(CliIo& io) override {
    if (token_app_->parsed()) return token_->run(io);
    const Result<nlohmann::json> answer = review();
    if (!answer.ok()) return report_error(io, answer.status());
    const bool allowed = answer->value("allowed", false);
    io.out << (allowed ? "yes" : "no");
    if (const std::string reason = answer->value("reason", ""); !reason.empty()) {
      io.out << " - " << reason;
    }
    io.out << "\n";
    return allowed ? kExitOk : kExitFailure;
  }

 private:
  Result<nlohmann::json> review() {
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    nlohmann::json request = {
        {"verb", verb_}, {"resource", resource_}, {"namespace", namespace_}, {"name", name_}};
    if (!as_.empty()) request["user"] = as_;
    if (!as_groups_.empty()) request["groups"] = as_groups_;
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse response,
                           client.post("/api/v1/accessreviews", request.dump(), kJsonContentType));
    return response.json();
  }

  std::string verb_;
  std::string resource_;
  std::string name_;
  std::string namespace_;
  std::string as_;
  std::vector<std::string> as_groups_;
  ServerFlags server_;
  std::unique_ptr<Command> token_ = make_auth_token_command();
  CLI::App* token_app_ = nullptr;
};

class TokenCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.require_subcommand(1);
    CLI::App* rotate = subcommand.add_subcommand(
        "rotate", "Replace an API token (the old one stops working) and print the new one");
    rotate->add_option("id", id_, "the token's name: admin, or a service account token's")
        ->required();
    add_server_flags(*rotate, server_);
  }

  int run(CliIo& io) override {
    const Result<nlohmann::json> answer = rotate();
    if (!answer.ok()) return report_error(io, answer.status());
    io.out << answer->value("token", "") << "\n";
    return kExitOk;
  }

 private:
  Result<nlohmann::json> rotate() {
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_ASSIGN_OR_RETURN(
        const ApiResponse response,
        client.post("/api/v1/tokens/" + percent_encode(id_) + "/rotate", "", kJsonContentType));
    return response.json();
  }

  std::string id_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_auth_command() { return std::make_unique<AuthCommand>(); }
std::unique_ptr<Command> make_token_command() { return std::make_unique<TokenCommand>(); }

}  // namespace allot::cli
