// Runs the allot CLI in-process, as the client tests do, capturing its
// output streams and exit code.
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "backends/sim/virtual_executor.h"
#include "cli/verbs/cli_app.h"

namespace allot::cli::testing {

struct CliOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `stdin_text` is what `-f -` reads.
inline CliOutcome run_allot(const std::vector<std::string>& args,
                            const std::string& stdin_text = "") {
  std::ostringstream out;
  std::ostringstream err;
  std::istringstream in(stdin_text);
  CliOutcome outcome;
  // The simulator's executor as app/allot_main.cc chooses it.
  CliIo io{.out = out, .err = err, .in = &in, .simulator = sim::virtual_executor_factory()};
  outcome.exit_code = run_cli(args, std::move(io));
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

}  // namespace allot::cli::testing
