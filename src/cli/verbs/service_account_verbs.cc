#include "cli/verbs/service_account_verbs.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "cli/client/api_paths.h"
#include "cli/client/json_fields.h"
#include "cli/output/json_yaml.h"
#include "cli/output/service_account_tables.h"
#include "cli/verbs/exit_codes.h"

namespace allot::cli {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Status check_args(ServiceAccountKind kind, const ServiceAccountArgs& args) {
  if (args.all_namespaces && !args.namespace_name.empty()) {
    return invalid_argument("give either -n NAMESPACE or -A, not both");
  }
  if (kind == ServiceAccountKind::kToken) {
    if (args.service_account.empty() || args.namespace_name.empty()) {
      return invalid_argument(
          "tokens belong to a service account: give --serviceaccount NAME -n NS");
    }
    return {};
  }
  if (!args.service_account.empty()) return invalid_argument("--serviceaccount applies to tokens");
  if (!args.name.empty() && args.namespace_name.empty()) {
    return invalid_argument("a service account lives in a namespace: give -n NAMESPACE");
  }
  return {};
}

Result<nlohmann::json> fetch(const ServiceAccountKind kind, const ServiceAccountArgs& args,
                             const ServerFlags& server) {
  ALLOT_RETURN_IF_ERROR(check_args(kind, args));
  std::string path;
  if (kind == ServiceAccountKind::kToken) {
    path = service_account_path(args.namespace_name, args.service_account, "tokens");
  } else if (!args.name.empty()) {
    path = service_account_path(args.namespace_name, args.name);
  } else {
    path = service_accounts_path(args.namespace_name);
  }
  ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server));
  ALLOT_ASSIGN_OR_RETURN(const ApiResponse response, client.get(path));
  return response.json();
}

}  // namespace

ServiceAccountKind service_account_kind_of(std::string_view kind) {
  const std::string name = lower(kind);
  if (name == "serviceaccounts" || name == "serviceaccount" || name == "sa") {
    return ServiceAccountKind::kServiceAccount;
  }
  if (name == "tokens" || name == "token") return ServiceAccountKind::kToken;
  return ServiceAccountKind::kNone;
}

int get_service_accounts(CliIo& io, ServiceAccountKind kind, const ServiceAccountArgs& args,
                         const ServerFlags& server) {
  const Result<nlohmann::json> answer = fetch(kind, args, server);
  if (!answer.ok()) return report_error(io, answer.status());
  const bool single = kind == ServiceAccountKind::kServiceAccount && !args.name.empty();
  if (args.output == "json" || args.output == "yaml") {
    io.out << structured_text(*answer, args.output);
    return kExitOk;
  }
  const nlohmann::json& listed =
      single ? nlohmann::json::array({*answer}) : array_at(*answer, "items");
  const std::vector<nlohmann::json> items(listed.begin(), listed.end());
  if (items.empty()) {
    io.err << (kind == ServiceAccountKind::kToken ? "No tokens found" : "No serviceaccounts found")
           << (args.namespace_name.empty() ? "" : " in namespace " + args.namespace_name) << ".\n";
    return kExitOk;
  }
  const Timestamp now = SystemClock().now();
  io.out << (kind == ServiceAccountKind::kToken ? service_account_tokens_table(items, now)
                                                : service_accounts_table(items, now));
  return kExitOk;
}

int delete_service_account_object(CliIo& io, ServiceAccountKind kind,
                                  const ServiceAccountArgs& args, const ServerFlags& server) {
  const auto remove = [&]() -> Status {
    if (kind == ServiceAccountKind::kToken && args.name.empty()) {
      return invalid_argument("name the token: allot delete token ID -n NS --serviceaccount NAME");
    }
    ALLOT_RETURN_IF_ERROR(check_args(kind, args));
    const std::string path = kind == ServiceAccountKind::kToken
                                 ? service_account_path(args.namespace_name, args.service_account,
                                                        "tokens/" + percent_encode(args.name))
                                 : service_account_path(args.namespace_name, args.name);
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server));
    return client.del(path).status();
  };
  if (const Status removed = remove(); !removed.ok()) return report_error(io, removed);
  io.out << (kind == ServiceAccountKind::kToken ? "token/" : "serviceaccount/") << args.name
         << " deleted\n";
  return kExitOk;
}

}  // namespace allot::cli
