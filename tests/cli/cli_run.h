// Runs the allot CLI in-process, as the client tests do, capturing its
// output streams and exit code.
#pragma once

#include <sstream>
#include <string>
#include <vector>

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
  outcome.exit_code = run_cli(args, CliIo{out, err, &in});
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

}  // namespace allot::cli::testing
