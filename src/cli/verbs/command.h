// Command: one verb of the allot CLI (`simulate`, `apply`, `get`, ...).
//
// Contract: each verb lives in its own file as a Command and is listed once in
// cli_app.cc. configure() declares the verb's options on its CLI11
// subcommand, binding them to the command's members; run() is called only
// when that subcommand was selected and parsing succeeded, and returns the
// process exit code (exit_codes.h). run() reports errors on io.err as
// "error: <status>" (the verbs that talk to allotd: "error: <message> (at
// <details>)", server_verb.h) and never throws. Not thread-safe; one use per
// process.
#pragma once

#include <functional>
#include <istream>
#include <ostream>

#include "base/clock.h"
#include "base/time.h"
#include "identity/oidc/http_port.h"
#include "service/simulation/simulation_options.h"

namespace CLI {  // NOLINT(readability-identifier-naming): CLI11's own namespace
class App;
}  // namespace CLI

namespace allot::cli {

// What `allot login` (the OIDC device flow) and `allot auth token` need of
// the outside world: app/ chooses the real ones, tests fake them so that no
// test waits out a polling interval.
struct LoginTools {
  oidc::HttpPort* identity_provider = nullptr;  // HTTP to the issuer; null: no OIDC login
  const Clock* clock = nullptr;                 // null: these verbs cannot run
  std::function<void(Duration)> sleep = {};     // between polls of the token endpoint
};

struct CliIo {
  std::ostream& out;  // results: tables for people, JSON for machines
  std::ostream& err;  // errors and warnings
  // What `-f -` reads (apply, submit); nullptr: the process's standard input.
  std::istream* in = nullptr;
  // The executor on virtual time that `simulate` runs pods on (app/ chooses it).
  SteppedExecutorFactory simulator;
  LoginTools login = {};
};

class Command {
 public:
  virtual ~Command() = default;
  virtual void configure(CLI::App& subcommand) = 0;
  virtual int run(CliIo& io) = 0;
};

}  // namespace allot::cli
