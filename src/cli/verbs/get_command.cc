#include "cli/verbs/get_command.h"

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "api/resource_kinds.h"
#include "api/rfc3339.h"
#include "base/clock.h"
#include "cli/client/api_paths.h"
#include "cli/client/json_fields.h"
#include "cli/client/workload_listing.h"
#include "cli/client/workload_ref.h"
#include "cli/output/json_yaml.h"
#include "cli/output/object_tables.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"
#include "cli/verbs/service_account_verbs.h"

namespace allot::cli {
namespace {

struct GetFlags {
  std::string kind;
  std::string name;
  std::string namespace_name;
  bool all_namespaces = false;
  std::string output;
  std::string phase;
  std::string team;
  int64_t limit = 0;
  std::string sort_by;
  std::string service_account;  // tokens only
  std::string expiring;         // exceptions only: a duration ("7d")
  ServerFlags server;
};

Status check_flags(const GetFlags& flags, const KindInfo& kind) {
  const bool workloads = kind.kind == ResourceKind::kWorkload;
  if (!workloads &&
      (!flags.phase.empty() || !flags.team.empty() || flags.limit > 0 || !flags.sort_by.empty())) {
    return invalid_argument("--phase, --team, --limit and --sort-by apply to workloads only");
  }
  if (flags.all_namespaces && !flags.namespace_name.empty()) {
    return invalid_argument("give either -n NAMESPACE or -A, not both");
  }
  if (flags.limit < 0) return invalid_argument("--limit must be positive");
  if (!flags.service_account.empty()) return invalid_argument("--serviceaccount applies to tokens");
  if (!flags.expiring.empty()) {
    if (kind.kind != ResourceKind::kPolicyException) {
      return invalid_argument("--expiring applies to exceptions only", "--expiring");
    }
    if (!flags.name.empty())
      return invalid_argument("--expiring lists; give no NAME", "--expiring");
    ALLOT_RETURN_IF_ERROR(parse_duration(flags.expiring).status());
  }
  return {};
}

// The exceptions that apply at `now` and expire within `window`.
std::vector<nlohmann::json> expiring_exceptions(const std::vector<nlohmann::json>& items,
                                                Timestamp now, Duration window) {
  std::vector<nlohmann::json> kept;
  for (const nlohmann::json& item : items) {
    const Result<Timestamp> expires = parse_rfc3339(text_at(item, {"spec", "expires"}));
    const std::string phase = text_at(item, {"status", "phase"});
    const bool approved = phase.empty() || phase == "Approved";  // in force once approved
    if (approved && expires.ok() && now < *expires && *expires <= now + window) {
      kept.push_back(item);
    }
  }
  return kept;
}

Result<nlohmann::json> get_one(ApiClient& client, const KindInfo& kind, const GetFlags& flags) {
  std::string path;
  if (kind.kind == ResourceKind::kWorkload) {
    ALLOT_ASSIGN_OR_RETURN(const WorkloadRef ref,
                           parse_workload_ref(flags.name, flags.namespace_name));
    path = workload_path(ref.namespace_name, ref.name);
  } else if (kind.namespaced) {
    ALLOT_ASSIGN_OR_RETURN(const WorkloadRef ref,
                           parse_namespaced_ref(kind.singular, flags.name, flags.namespace_name));
    path = namespaced_object_path(kind.plural, ref.namespace_name, ref.name);
  } else {
    path = cluster_object_path(kind.plural, flags.name);
  }
  ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(path));
  return response.json();
}

Result<std::vector<nlohmann::json>> get_list(ApiClient& client, const KindInfo& kind,
                                             const GetFlags& flags) {
  if (kind.kind == ResourceKind::kWorkload) {
    return list_workloads(client, {.namespace_name = flags.namespace_name,
                                   .phase = flags.phase,
                                   .team = flags.team,
                                   .limit = flags.limit,
                                   .sort = flags.sort_by});
  }
  // Nodes come in pages (docs/api.md); the other kinds in one answer.
  std::vector<nlohmann::json> all;
  std::string token;
  while (true) {
    const std::string collection =
        kind.namespaced ? namespaced_collection_path(kind.plural, flags.namespace_name)
                        : cluster_collection_path(kind.plural);
    const std::string path = with_query(collection, {{"continue", token}});
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(path));
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json answer, response.json());
    const nlohmann::json& items = array_at(answer, "items");
    all.insert(all.end(), items.begin(), items.end());
    const std::string next = text_at(answer, {"continue"});
    if (next.empty()) return all;
    if (next == token) {
      return Status(ErrorCode::kInternal, "allotd sent the same continue token twice",
                    "continue=" + next);
    }
    token = next;
  }
}

// Prints the objects in the requested form; `single` when NAME was given.
void print_objects(CliIo& io, const KindInfo& kind, const GetFlags& flags,
                   const std::vector<nlohmann::json>& items, bool single) {
  if (flags.output == "json" || flags.output == "yaml") {
    const nlohmann::json document =
        single ? items.front() : nlohmann::json{{"items", nlohmann::json(items)}};
    io.out << structured_text(document, flags.output);
    return;
  }
  if (items.empty()) {
    io.err << "No " << kind.plural << " found"
           << (flags.namespace_name.empty() ? "" : " in namespace " + flags.namespace_name)
           << ".\n";
    return;
  }
  io.out << objects_table(kind.kind, items, flags.output == "wide", SystemClock().now());
}

class GetCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand
        .add_option("kind", flags_.kind,
                    "workloads (wl), teams, nodes, cohorts, priorityclasses (pc), "
                    "resourceflavors (flavors), nodepools, clusters, roles, clusterroles, "
                    "rolebindings, clusterrolebindings, serviceaccounts (sa), tokens, "
                    "organizations, contracts, policyexceptions (exceptions), budgets, signals")
        ->required();
    subcommand.add_option("name", flags_.name,
                          "One object by name (workloads, roles, rolebindings: NAME or NS/NAME)");
    subcommand.add_option("-n,--namespace", flags_.namespace_name,
                          "Namespace of workloads, roles or rolebindings");
    subcommand.add_flag("-A,--all-namespaces", flags_.all_namespaces,
                        "Every namespace you may list (the default without -n)");
    subcommand.add_option("-o,--output", flags_.output, "Output format: wide, json or yaml")
        ->check(CLI::IsMember({"wide", "json", "yaml"}));
    subcommand.add_option("--phase", flags_.phase, "Workloads in these phases (Pending,Running)");
    subcommand.add_option("--team", flags_.team, "Workloads of this team");
    subcommand.add_option("--limit", flags_.limit, "At most this many workloads");
    subcommand.add_option("--sort-by", flags_.sort_by,
                          "Workloads in this order: age, name, namespace, phase, priority or "
                          "user, \"-\" before it for descending (-priority)");
    subcommand.add_option("--serviceaccount", flags_.service_account,
                          "The service account whose tokens to list (get tokens)");
    subcommand.add_option("--expiring", flags_.expiring,
                          "get exceptions: only those in force that expire within this "
                          "duration (7d, 12h)");
    add_server_flags(subcommand, flags_.server);
  }

  int run(CliIo& io) override {
    if (const ServiceAccountKind account = service_account_kind_of(flags_.kind);
        account != ServiceAccountKind::kNone) {
      if (!flags_.phase.empty() || !flags_.team.empty() || flags_.limit != 0 ||
          !flags_.sort_by.empty()) {
        return report_error(
            io, invalid_argument("--phase, --team, --limit and --sort-by apply to workloads only"));
      }
      return get_service_accounts(io, account,
                                  {flags_.name, flags_.namespace_name, flags_.service_account,
                                   flags_.all_namespaces, flags_.output},
                                  flags_.server);
    }
    const Result<KindInfo> kind = parse_resource_kind(flags_.kind);
    if (!kind.ok()) return report_error(io, kind.status());
    if (const Status checked = check_flags(flags_, *kind); !checked.ok()) {
      return report_error(io, checked);
    }
    Result<ApiClient> client = open_api_client(flags_.server);
    if (!client.ok()) return report_error(io, client.status());
    if (!flags_.name.empty()) {
      const Result<nlohmann::json> object = get_one(*client, *kind, flags_);
      if (!object.ok()) return report_error(io, object.status());
      print_objects(io, *kind, flags_, {*object}, /*single=*/true);
      return kExitOk;
    }
    Result<std::vector<nlohmann::json>> items = get_list(*client, *kind, flags_);
    if (!items.ok()) return report_error(io, items.status());
    if (!flags_.expiring.empty()) {
      *items = expiring_exceptions(*items, SystemClock().now(), *parse_duration(flags_.expiring));
    }
    print_objects(io, *kind, flags_, *items, /*single=*/false);
    return kExitOk;
  }

 private:
  GetFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_get_command() { return std::make_unique<GetCommand>(); }

}  // namespace allot::cli
