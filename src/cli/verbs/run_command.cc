#include "cli/verbs/run_command.h"

#include <optional>

#include <CLI/CLI.hpp>

#include "base/time.h"
#include "cli/client/api_paths.h"
#include "cli/client/json_fields.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

// A quantity as JSON: a number when it is a plain integer ("4"), else the
// string ("500m", "64Gi").
nlohmann::json quantity_json(const std::string& text) {
  const std::optional<int64_t> number = integer_of(nlohmann::json(text));
  return number ? nlohmann::json(*number) : nlohmann::json(text);
}

Result<nlohmann::json> resources_json(const RunSpec& spec) {
  if (spec.gpus < 0) return invalid_argument("--gpus must not be negative");
  nlohmann::json resources = {{"gpu", spec.gpus}};
  if (!spec.cpu.empty()) resources["cpu"] = quantity_json(spec.cpu);
  if (!spec.memory.empty()) resources["memory"] = quantity_json(spec.memory);
  return resources;
}

Result<nlohmann::json> spec_json(const RunSpec& spec) {
  if (spec.command.empty()) {
    return invalid_argument("run needs the command to run after --: allot run ... -- CMD ARGS");
  }
  if (spec.count < 1) return invalid_argument("--count must be at least 1");
  ALLOT_ASSIGN_OR_RETURN(nlohmann::json resources, resources_json(spec));
  nlohmann::json out = {
      {"kind", "Job"},
      {"podSets", {{{"name", "main"}, {"count", spec.count}, {"resources", resources}}}},
      {"command", spec.command}};
  if (!spec.priority_class.empty()) out["priorityClass"] = spec.priority_class;
  if (!spec.max_runtime.empty()) {
    const Result<Duration> max_runtime = parse_duration(spec.max_runtime);
    if (!max_runtime.ok()) return max_runtime.status().with_context("--max-runtime");
    out["maxRuntimeSeconds"] = (max_runtime->ms() + 999) / 1000;
  }
  return out;
}

}  // namespace

Result<nlohmann::json> build_run_workload(const RunSpec& spec) {
  if (spec.team.empty()) return invalid_argument("run needs --team");
  ALLOT_ASSIGN_OR_RETURN(nlohmann::json workload_spec, spec_json(spec));
  nlohmann::json metadata = {
      {"namespace", spec.namespace_name.empty() ? spec.team : spec.namespace_name}};
  if (!spec.name.empty()) metadata["name"] = spec.name;
  return nlohmann::json{{"apiVersion", "allot/v1"},
                        {"kind", "Workload"},
                        {"metadata", std::move(metadata)},
                        {"spec", std::move(workload_spec)}};
}

namespace {

class RunCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("--team", spec_.team, "Team to run for")->required();
    subcommand.add_option("--gpus", spec_.gpus, "GPUs per pod")->required();
    subcommand.add_option("--cpu", spec_.cpu, "CPU per pod (4, 500m)");
    subcommand.add_option("--memory", spec_.memory, "Memory per pod (64Gi)");
    subcommand.add_option("--count", spec_.count, "Pods, admitted together (default 1)");
    subcommand.add_option("--priority", spec_.priority_class, "Priority class");
    subcommand.add_option("--name", spec_.name, "Workload name (default: chosen by allotd)");
    subcommand.add_option("-n,--namespace", spec_.namespace_name,
                          "Namespace (default: the team's name)");
    subcommand.add_option("--max-runtime", spec_.max_runtime, "Stop it after this long (2h)");
    subcommand.add_option("command", spec_.command, "The command, after --");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Status created = create(io);
    return created.ok() ? kExitOk : report_error(io, created);
  }

 private:
  Status create(CliIo& io) {
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json workload, build_run_workload(spec_));
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    const std::string namespace_name = text_at(workload, {"metadata", "namespace"});
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.post(workloads_path(namespace_name),
                                                             workload.dump(), kJsonContentType));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json answer, response.json());
    io.out << "workload/" << text_at(answer, {"metadata", "name"}) << " created (uid "
           << text_at(answer, {"metadata", "uid"}) << ")\n";
    return {};
  }

  RunSpec spec_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace allot::cli
