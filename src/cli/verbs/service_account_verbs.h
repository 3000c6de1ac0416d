// ServiceAccountVerbs: what `allot get` and `allot delete` do with service
// accounts and their tokens (docs/api.md, "Service accounts"); the shapes
// follow kubectl's:
//   allot get serviceaccounts [NAME] [-n NS | -A] [-o wide|json|yaml]   (also: sa, serviceaccount)
//   allot get tokens --serviceaccount NAME -n NS [-o json|yaml]         (also: token)
//   allot delete serviceaccount NAME -n NS      (revokes every token of it)
//   allot delete token ID -n NS --serviceaccount NAME
// (`allot create serviceaccount` and `allot create token`: create_command.h.)
//
// Contract: service_account_kind_of() names the kind of a KIND argument (any
// case), kNone for every other kind (get_command and delete_command then go
// on as before). A namespace is needed for one account and for tokens;
// without -n, `get serviceaccounts` lists every namespace the caller may
// list. Errors are printed with report_error() and the exit code returned.
// No token is ever printed here (the answers hold none).
#pragma once

#include <string>
#include <string_view>

#include "cli/verbs/command.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {

enum class ServiceAccountKind { kNone, kServiceAccount, kToken };

ServiceAccountKind service_account_kind_of(std::string_view kind);

struct ServiceAccountArgs {
  std::string name;  // the account (get, delete serviceaccount) or the token id (delete token)
  std::string namespace_name;
  std::string service_account;  // --serviceaccount: tokens only
  bool all_namespaces = false;
  std::string output;  // "", wide, json or yaml
};

int get_service_accounts(CliIo& io, ServiceAccountKind kind, const ServiceAccountArgs& args,
                         const ServerFlags& server);
int delete_service_account_object(CliIo& io, ServiceAccountKind kind,
                                  const ServiceAccountArgs& args, const ServerFlags& server);

}  // namespace allot::cli
