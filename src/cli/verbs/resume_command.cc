#include "cli/verbs/resume_command.h"

#include <string>

#include <CLI/CLI.hpp>

#include "cli/client/api_paths.h"
#include "cli/client/workload_ref.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

class ResumeCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("name", name_, "The workload: NAME (with -n) or NS/NAME")->required();
    subcommand.add_option("-n,--namespace", namespace_, "Namespace of the workload");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Result<WorkloadRef> resumed = resume();
    if (!resumed.ok()) return report_error(io, resumed.status());
    io.out << "workload/" << resumed->name << " resumed\n";
    return kExitOk;
  }

 private:
  Result<WorkloadRef> resume() {
    ALLOT_ASSIGN_OR_RETURN(WorkloadRef ref, parse_workload_ref(name_, namespace_));
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_RETURN_IF_ERROR(
        client.post(workload_path(ref.namespace_name, ref.name, "resume"), "", kJsonContentType)
            .status());
    return ref;
  }

  std::string name_;
  std::string namespace_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_resume_command() { return std::make_unique<ResumeCommand>(); }

}  // namespace allot::cli
