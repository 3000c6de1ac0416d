// The `allot` executable: the command line, wired to the real streams, to
// the simulated backend that `allot simulate` runs pods on, and to the real
// clock and HTTPS client of `allot login`'s OIDC device flow.
#include <chrono>
#include <iostream>
#include <thread>
#include <utility>

#include "backends/sim/virtual_executor.h"
#include "base/clock.h"
#include "cli/verbs/cli_app.h"
#include "identity/oidc/oidc_http_client.h"

int main(int argc, char** argv) {
  allot::SystemClock clock;
  allot::oidc::OidcHttpClient identity_provider;
  allot::cli::CliIo io{
      .out = std::cout,
      .err = std::cerr,
      .in = nullptr,
      .simulator = allot::sim::virtual_executor_factory(),
      .login = {
          .identity_provider = &identity_provider, .clock = &clock, .sleep = [](allot::Duration d) {
            std::this_thread::sleep_for(std::chrono::milliseconds(d.ms()));
          }}};
  return allot::cli::run_cli(argc, argv, std::move(io));
}
