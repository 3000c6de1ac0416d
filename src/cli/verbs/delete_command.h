// `allot delete KIND NAME [-n NS] [--serviceaccount SA] [--server URL]`: removes one object.
//
// Contract: workloads (NAME with -n, or NS/NAME) are cancelled if needed and
// removed with their events (DELETE /api/v1/namespaces/{ns}/workloads/{name});
// roles and rolebindings (NAME with -n, or NS/NAME) with DELETE
// /api/v1/namespaces/{ns}/{kind}/{name}; other policy objects with DELETE
// /api/v1/{kind}/{name}, which allotd refuses (409, exit 2) when it would
// leave the policy invalid, or for a built-in role. Nodes cannot
// be deleted (they come from node pools). Service accounts (`delete
// serviceaccount NAME -n NS`, with every token of it) and tokens (`delete
// token ID -n NS --serviceaccount NAME`): service_account_verbs.h. Prints
// "<kind>/<name> deleted".
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_delete_command();

}  // namespace allot::cli
