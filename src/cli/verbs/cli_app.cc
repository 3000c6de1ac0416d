#include "cli/verbs/cli_app.h"

#include <functional>
#include <memory>
#include <string_view>
#include <utility>

#include <CLI/CLI.hpp>

#include "cli/verbs/apply_command.h"
#include "cli/verbs/audit_command.h"
#include "cli/verbs/auth_command.h"
#include "cli/verbs/cancel_command.h"
#include "cli/verbs/contract_command.h"
#include "cli/verbs/create_command.h"
#include "cli/verbs/delete_command.h"
#include "cli/verbs/describe_command.h"
#include "cli/verbs/evidence_command.h"
#include "cli/verbs/exception_command.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/export_command.h"
#include "cli/verbs/get_command.h"
#include "cli/verbs/import_command.h"
#include "cli/verbs/login_command.h"
#include "cli/verbs/logs_command.h"
#include "cli/verbs/report_command.h"
#include "cli/verbs/resume_command.h"
#include "cli/verbs/run_command.h"
#include "cli/verbs/scale_command.h"
#include "cli/verbs/simulate_command.h"
#include "cli/verbs/submit_command.h"
#include "cli/verbs/top_command.h"

namespace allot::cli {
namespace {

constexpr std::string_view kVersion = "allot 0.1.0";

struct Verb {
  const char* name;
  const char* description;
  std::function<std::unique_ptr<Command>()> make;
};

// Every verb of the CLI; adding one is a new file and one line here.
std::vector<Verb> all_verbs() {
  return {
      {"apply", "Apply policy manifests to allotd (all or nothing; --dry-run shows the diff)",
       make_apply_command},
      {"get", "List or show objects: workloads, teams, nodes, cohorts, ...", make_get_command},
      {"describe", "Show one object in words, with its status and events", make_describe_command},
      {"delete", "Delete one object", make_delete_command},
      {"create", "Create a service account or issue its token: allot create token NAME -n NS",
       make_create_command},
      {"submit", "Create the Workload documents of a file", make_submit_command},
      {"run", "Run a command as a workload: allot run --team T --gpus N -- CMD", make_run_command},
      {"cancel", "Cancel a workload", make_cancel_command},
      {"resume", "Resume a suspended Space", make_resume_command},
      {"scale", "Set an inference endpoint's replicas", make_scale_command},
      {"logs", "Print a workload pod's log (-f follows it)", make_logs_command},
      {"top", "Quota and usage per team, flavor and resource", make_top_command},
      {"report", "Usage and cost from the metering ledger: allot report usage --from --to",
       make_report_command},
      {"simulate", "Run a what-if simulation of a policy and scenario on virtual time",
       make_simulate_command},
      {"export",
       "Render the policy for another system: allot export kubernetes [workload NAME] | "
       "prometheus-rules",
       make_export_command},
      {"import", "Read another system's policy: allot import kubernetes -f OBJECTS.yaml",
       make_import_command},
      {"login", "Log in to allotd with an API token (a session, bound to a team and role if asked)",
       make_login_command},
      {"whoami", "Show who you are to allotd: subject, groups, team and role", make_whoami_command},
      {"auth", "Ask allotd about access: allot auth can-i VERB RESOURCE [-n NS]",
       make_auth_command},
      {"token", "Manage API tokens: allot token rotate ID", make_token_command},
      {"audit", "The audit log: allot audit verify (offline) | allot audit log [--user ...]",
       make_audit_command},
      {"contract",
       "Connection contracts: allot contract create -f F | approve|activate|review|renew|revoke "
       "NAME --reason R | get | describe NAME",
       make_contract_command},
      {"exception",
       "Decide a requested PolicyException: allot exception approve|reject NAME --reason R",
       make_exception_command},
      {"evidence",
       "A project's signed evidence report: allot evidence export --project P --out DIR | "
       "verify DIR --key K",
       make_evidence_command},
  };
}

// `allot --bogus`: CLI11 would only say that a command is required.
bool is_misplaced_option(int argc, const char* const* argv) {
  if (argc < 2) return false;
  const std::string_view first = argv[1];
  return first.starts_with("-") && first != "-h" && first != "--help" && first != "--version";
}

}  // namespace

int run_cli(int argc, const char* const* argv, CliIo io) {
  if (is_misplaced_option(argc, argv)) {
    io.err << "error: unknown option '" << argv[1]
           << "': allot takes a command first (allot COMMAND [OPTIONS])\n"
           << "Run 'allot --help' for usage.\n";
    return kExitUsage;
  }
  CLI::App app("allot: governance and scheduling for shared GPU clusters", "allot");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(kVersion));
  std::vector<std::pair<CLI::App*, std::unique_ptr<Command>>> commands;
  for (const Verb& verb : all_verbs()) {
    CLI::App* subcommand = app.add_subcommand(verb.name, verb.description);
    std::unique_ptr<Command> command = verb.make();
    command->configure(*subcommand);
    commands.emplace_back(subcommand, std::move(command));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& success) {
    return app.exit(success, io.out, io.err);  // --help, --version
  } catch (const CLI::ParseError& error) {
    io.err << "error: " << error.what() << "\n"
           << "Run 'allot --help' for usage.\n";
    return kExitUsage;
  }
  for (auto& [subcommand, command] : commands) {
    if (subcommand->parsed()) {
      return command->run(io);
    }
  }
  io.err << "error: no command given\nRun 'allot --help' for usage.\n";
  return kExitUsage;
}

int run_cli(const std::vector<std::string>& args, CliIo io) {
  std::vector<const char*> argv = {"allot"};
  for (const std::string& arg : args) {
    argv.push_back(arg.c_str());
  }
  return run_cli(static_cast<int>(argv.size()), argv.data(), io);
}

}  // namespace allot::cli
