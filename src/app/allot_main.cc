// The `allot` executable: the command line, wired to the real streams.
#include <iostream>

#include "cli/verbs/cli_app.h"

int main(int argc, char** argv) { return allot::cli::run_cli(argc, argv, {std::cout, std::cerr}); }
