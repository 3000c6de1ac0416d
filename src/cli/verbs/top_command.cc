#include "cli/verbs/top_command.h"

#include <string>

#include <CLI/CLI.hpp>

#include "cli/client/api_paths.h"
#include "cli/output/json_yaml.h"
#include "cli/output/top_table.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

class TopCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("--team", team_, "Only this team");
    subcommand.add_option("-o,--output", output_, "Output format: json or yaml")
        ->check(CLI::IsMember({"json", "yaml"}));
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Result<nlohmann::json> answer = fetch();
    if (!answer.ok()) return report_error(io, answer.status());
    io.out << (output_.empty() ? top_table(*answer) : structured_text(*answer, output_));
    return kExitOk;
  }

 private:
  Result<nlohmann::json> fetch() {
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(std::string(kTopPath)));
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json answer, response.json());
    return filter_top(answer, team_);
  }

  std::string team_;
  std::string output_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_top_command() { return std::make_unique<TopCommand>(); }

}  // namespace allot::cli
