#include "cli/verbs/import_command.h"

#include <string>

#include <CLI/CLI.hpp>

#include "api/kubernetes/kueue_import.h"
#include "api/kubernetes/policy_manifests.h"
#include "cli/output/json_yaml.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/input_files.h"

namespace allot::cli {
namespace {

class ImportCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("target", target_, "What to import: kubernetes")
        ->required()
        ->check(CLI::IsMember({"kubernetes"}));
    subcommand.add_option("-f,--filename", file_, "Kueue objects (YAML; - for stdin)")->required();
    subcommand.add_option("--flavor", flavor_, "Names: plain or hyperpod")
        ->check(CLI::IsMember({"plain", "hyperpod"}));
  }

  int run(CliIo& io) override {
    Result<std::string> text = read_input_file(file_, io);
    if (!text.ok()) return fail(io, text.status());
    const KubernetesNaming naming =
        flavor_ == "hyperpod" ? KubernetesNaming::kHyperPod : KubernetesNaming::kPlain;
    Result<Policy> policy = import_kueue(*text, file_, naming);
    if (!policy.ok()) return fail(io, policy.status());
    for (const nlohmann::json& document : policy_manifests(*policy)) {
      io.out << "---\n" << json_to_yaml(document);
    }
    return kExitOk;
  }

 private:
  static int fail(CliIo& io, const Status& status) {
    io.err << "error: " << status.message()
           << (status.details().empty() ? "" : " (at " + status.details() + ")") << "\n";
    return exit_code_for(status);
  }

  std::string target_;
  std::string file_;
  std::string flavor_ = "plain";
};

}  // namespace

std::unique_ptr<Command> make_import_command() { return std::make_unique<ImportCommand>(); }

}  // namespace allot::cli
