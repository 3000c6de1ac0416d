#include "cli/verbs/describe_command.h"

#include <string>

#include <CLI/CLI.hpp>

#include "api/resource_kinds.h"
#include "base/clock.h"
#include "cli/client/api_paths.h"
#include "cli/client/workload_ref.h"
#include "cli/output/policy_description.h"
#include "cli/output/workload_description.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

Result<nlohmann::json> get_json(ApiClient& client, const std::string& path) {
  ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(path));
  return response.json();
}

Result<std::string> describe_workload_named(ApiClient& client, const std::string& name,
                                            const std::string& namespace_name) {
  ALLOT_ASSIGN_OR_RETURN(const WorkloadRef ref, parse_workload_ref(name, namespace_name));
  ALLOT_ASSIGN_OR_RETURN(const nlohmann::json workload,
                         get_json(client, workload_path(ref.namespace_name, ref.name)));
  ALLOT_ASSIGN_OR_RETURN(const nlohmann::json events,
                         get_json(client, workload_path(ref.namespace_name, ref.name, "events")));
  return describe_workload(workload, events, SystemClock().now());
}

class DescribeCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("kind", kind_, "workload, team, node, cohort, priorityclass, ...")
        ->required();
    subcommand.add_option("name", name_, "The object's name (workloads: NAME or NS/NAME)")
        ->required();
    subcommand.add_option("-n,--namespace", namespace_, "Namespace of the workload");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Result<std::string> text = describe();
    if (!text.ok()) return report_error(io, text.status());
    io.out << *text;
    return kExitOk;
  }

 private:
  Result<std::string> describe() {
    ALLOT_ASSIGN_OR_RETURN(const KindInfo kind, parse_resource_kind(kind_));
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    if (kind.kind == ResourceKind::kWorkload) {
      return describe_workload_named(client, name_, namespace_);
    }
    std::string path = cluster_object_path(kind.plural, name_);
    if (kind.namespaced) {
      ALLOT_ASSIGN_OR_RETURN(const WorkloadRef ref,
                             parse_namespaced_ref(kind.singular, name_, namespace_));
      path = namespaced_object_path(kind.plural, ref.namespace_name, ref.name);
    }
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json object, get_json(client, path));
    switch (kind.kind) {
      case ResourceKind::kTeam: return describe_team(object);
      case ResourceKind::kNode: return describe_node(object);
      case ResourceKind::kSignal: {
        ALLOT_ASSIGN_OR_RETURN(const nlohmann::json history, get_json(client, path + "/history"));
        return describe_policy_object(object) + describe_signal_history(history);
      }
      default: return describe_policy_object(object);
    }
  }

  std::string kind_;
  std::string name_;
  std::string namespace_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_describe_command() { return std::make_unique<DescribeCommand>(); }

}  // namespace allot::cli
