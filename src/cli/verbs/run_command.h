// `allot run --team T --gpus N [--cpu C] [--memory M] [--count PODS]
// [--priority P] [--name NAME] [-n NS] [--max-runtime D] [--server URL] --
// CMD...`: builds a Workload (kind Job, one pod set "main" of PODS pods,
// each with N GPUs and the given CPU and memory) and creates it with POST
// /api/v1/namespaces/{ns}/workloads as JSON; prints
// "workload/<name> created (uid N)".
//
// Contract: the namespace is the team's, T, unless -n says otherwise (a team
// whose namespace differs from its name). Without --name allotd names the
// workload. --max-runtime takes a duration ("2h", "90m", "3600") sent as
// whole seconds, rounded up. The command after `--` is required.
// build_run_workload() is the pure part, for tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "cli/verbs/command.h"

namespace allot::cli {

struct RunSpec {
  std::string team;
  std::string namespace_name;  // "" = team
  std::string name;            // "" = chosen by allotd
  int64_t gpus = 0;
  std::string cpu;
  std::string memory;
  int64_t count = 1;
  std::string priority_class;
  std::string max_runtime;  // a duration, "" for none
  std::vector<std::string> command;
};

// The Workload manifest as JSON. Errors: a bad duration, a negative GPU count,
// fewer than one pod, an empty command.
Result<nlohmann::json> build_run_workload(const RunSpec& spec);

std::unique_ptr<Command> make_run_command();

}  // namespace allot::cli
