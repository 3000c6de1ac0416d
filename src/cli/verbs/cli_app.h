// The allot command line: parses the arguments, dispatches to one verb and
// returns the process exit code (exit_codes.h).
//
// Contract: never throws; parse errors (unknown flags, missing required
// options, bad values) print "error: ..." and a usage hint on io.err and
// return kExitUsage; --help and --version print on io.out and return 0.
// Nothing but the selected verb's output is written to io.out.
#pragma once

#include <string>
#include <vector>

#include "cli/verbs/command.h"

namespace allot::cli {

// argv[0] is the program name, as in main().
int run_cli(int argc, const char* const* argv, CliIo io);
// The same, for tests: `args` excludes the program name.
int run_cli(const std::vector<std::string>& args, CliIo io);

}  // namespace allot::cli
