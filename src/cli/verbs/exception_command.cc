#include "cli/verbs/exception_command.h"

#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/client/api_client.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

using json = nlohmann::json;

class ExceptionCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("action", action_, "approve or reject")
        ->required()
        ->check(CLI::IsMember({"approve", "reject"}));
    subcommand.add_option("name", name_, "The PolicyException")->required();
    subcommand.add_option("--reason", reason_, "Why (recorded in the history)");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Status done = decide(io);
    return done.ok() ? kExitOk : report_error(io, done);
  }

 private:
  Status decide(CliIo& io) {
    if (reason_.empty()) return invalid_argument("a decision needs --reason", "--reason");
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response,
                           client.post("/api/v1/policyexceptions/" + name_ + "/" + action_,
                                       json{{"reason", reason_}}.dump(), kJsonContentType));
    ALLOT_ASSIGN_OR_RETURN(const json body, response.json());
    io.out << "policyexception/" << name_ << " "
           << body.value("status", json::object()).value("phase", "") << "\n";
    return {};
  }

  std::string action_;
  std::string name_;
  std::string reason_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_exception_command() { return std::make_unique<ExceptionCommand>(); }

}  // namespace allot::cli
