// The `allot` executable: the command line, wired to the real streams and
// to the simulated backend that `allot simulate` runs pods on.
#include <iostream>
#include <utility>

#include "backends/sim/virtual_executor.h"
#include "cli/verbs/cli_app.h"

int main(int argc, char** argv) {
  allot::cli::CliIo io{.out = std::cout,
                       .err = std::cerr,
                       .in = nullptr,
                       .simulator = allot::sim::virtual_executor_factory()};
  return allot::cli::run_cli(argc, argv, std::move(io));
}
