// KubernetesPolicySource: where `allot export kubernetes` reads the policy:
// the -f files (manifests of allot/v1 and the RBAC kinds), or, without files,
// allotd's applied objects (GET /api/v1/{kind} for every policy and RBAC kind,
// docs/api.md), parsed like files.
//
// Contract: all or nothing; file errors name the file, allotd's answers are
// those of server_verb.h. fetch_signals() reads allotd's Signals only (what
// `allot export prometheus-rules` renders). The bundle's policy is checked with validate_policy().
#pragma once

#include <string>
#include <vector>

#include "api/manifest_parser.h"
#include "base/result.h"
#include "cli/verbs/command.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {

Result<ManifestBundle> read_policy_files(const std::vector<std::string>& files, CliIo& io);
Result<ManifestBundle> fetch_policy(const ServerFlags& server);
// allotd's Signals (GET /api/v1/signals, their status left out).
Result<std::vector<Signal>> fetch_signals(const ServerFlags& server);

}  // namespace allot::cli
