#include "cli/verbs/delete_command.h"

#include <string>

#include <CLI/CLI.hpp>

#include "api/resource_kinds.h"
#include "cli/client/api_paths.h"
#include "cli/client/workload_ref.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"
#include "cli/verbs/service_account_verbs.h"

namespace allot::cli {
namespace {

class DeleteCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand
        .add_option("kind", kind_,
                    "workload, team, cohort, priorityclass, ..., role, rolebinding, "
                    "serviceaccount (sa), token")
        ->required();
    subcommand
        .add_option("name", name_,
                    "The object's name (workloads, roles, rolebindings: NAME or NS/NAME; tokens: "
                    "the token's ID)")
        ->required();
    subcommand.add_option("-n,--namespace", namespace_,
                          "Namespace of the workload, role, rolebinding or service account");
    subcommand.add_option("--serviceaccount", service_account_,
                          "The service account whose token to delete (delete token)");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    if (const ServiceAccountKind account = service_account_kind_of(kind_);
        account != ServiceAccountKind::kNone) {
      return delete_service_account_object(
          io, account, {name_, namespace_, service_account_, false, ""}, server_);
    }
    if (!service_account_.empty()) {
      return report_error(io, invalid_argument("--serviceaccount applies to tokens"));
    }
    const Result<std::string> deleted = remove();
    if (!deleted.ok()) return report_error(io, deleted.status());
    io.out << *deleted << " deleted\n";
    return kExitOk;
  }

 private:
  // Deletes the object and returns "<kind>/<name>".
  Result<std::string> remove() {
    ALLOT_ASSIGN_OR_RETURN(const KindInfo kind, parse_resource_kind(kind_));
    if (kind.kind == ResourceKind::kNode) {
      return invalid_argument("nodes cannot be deleted: they come from node pools");
    }
    std::string path;
    std::string name = name_;
    if (kind.kind == ResourceKind::kWorkload) {
      ALLOT_ASSIGN_OR_RETURN(const WorkloadRef ref, parse_workload_ref(name_, namespace_));
      path = workload_path(ref.namespace_name, ref.name);
      name = ref.name;
    } else if (kind.namespaced) {
      ALLOT_ASSIGN_OR_RETURN(const WorkloadRef ref,
                             parse_namespaced_ref(kind.singular, name_, namespace_));
      path = namespaced_object_path(kind.plural, ref.namespace_name, ref.name);
      name = ref.name;
    } else {
      path = cluster_object_path(kind.plural, name_);
    }
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_RETURN_IF_ERROR(client.del(path).status());
    return std::string(kind.singular) + "/" + name;
  }

  std::string kind_;
  std::string name_;
  std::string namespace_;
  std::string service_account_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_delete_command() { return std::make_unique<DeleteCommand>(); }

}  // namespace allot::cli
