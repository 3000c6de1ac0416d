#include "cli/verbs/apply_command.h"

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/client/api_paths.h"
#include "cli/output/apply_output.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/input_files.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

// The files as one YAML stream: a document separator between files, so that
// the last document of one never runs into the first of the next.
Result<std::string> joined_manifests(const std::vector<std::string>& paths, CliIo& io) {
  std::string stream;
  for (const std::string& path : paths) {
    ALLOT_ASSIGN_OR_RETURN(std::string content, read_input_file(path, io));
    if (!stream.empty()) stream += "\n---\n";
    stream += content;
  }
  return stream;
}

class ApplyCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand
        .add_option("-f,--filename", files_, "Manifest file to apply (repeatable; - for stdin)")
        ->required();
    subcommand.add_flag("--dry-run", dry_run_, "Validate and show the changes; write nothing");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Result<std::string> summary = apply(io);
    if (!summary.ok()) return report_error(io, summary.status());
    io.out << *summary;
    return kExitOk;
  }

 private:
  Result<std::string> apply(CliIo& io) {
    ALLOT_ASSIGN_OR_RETURN(const std::string manifests, joined_manifests(files_, io));
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    const std::string path =
        with_query(std::string(kApplyPath), {{"dryRun", dry_run_ ? "true" : ""}});
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.post(path, manifests, kYamlContentType));
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json answer, response.json());
    return apply_summary(answer);
  }

  std::vector<std::string> files_;
  bool dry_run_ = false;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_apply_command() { return std::make_unique<ApplyCommand>(); }

}  // namespace allot::cli
