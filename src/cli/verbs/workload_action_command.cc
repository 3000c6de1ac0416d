#include "cli/verbs/workload_action_command.h"

#include <string>
#include <utility>

#include <CLI/CLI.hpp>

#include "cli/client/api_paths.h"
#include "cli/client/workload_ref.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

class WorkloadActionCommand final : public Command {
 public:
  WorkloadActionCommand(std::string action, std::string done)
      : action_(std::move(action)), done_(std::move(done)) {}

  void configure(CLI::App& subcommand) override {
    subcommand.add_option("name", name_, "The workload: NAME (with -n) or NS/NAME")->required();
    subcommand.add_option("-n,--namespace", namespace_, "Namespace of the workload");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Result<WorkloadRef> acted = act();
    if (!acted.ok()) return report_error(io, acted.status());
    io.out << "workload/" << acted->name << " " << done_ << "\n";
    return kExitOk;
  }

 private:
  Result<WorkloadRef> act() {
    ALLOT_ASSIGN_OR_RETURN(WorkloadRef ref, parse_workload_ref(name_, namespace_));
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_RETURN_IF_ERROR(
        client.post(workload_path(ref.namespace_name, ref.name, action_), "", kJsonContentType)
            .status());
    return ref;
  }

  std::string action_;
  std::string done_;
  std::string name_;
  std::string namespace_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_workload_action_command(std::string action, std::string done) {
  return std::make_unique<WorkloadActionCommand>(std::move(action), std::move(done));
}

}  // namespace allot::cli
