// `allot logs NAME [-n NS] [--pod I] [-f] [--server URL]`: prints a pod's
// combined stdout and stderr (GET .../logs?pod=I&offset=O).
//
// Contract: NAME with -n, or NS/NAME; --pod counts the workload's pods from
// 0. With -f it follows the log (client/log_follower.h), polling every 500 ms
// until the workload has finished and its log is drained. The hidden
// --poll-interval (a duration, "0s" allowed) changes that period, for
// tests and scripts.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_logs_command();

}  // namespace allot::cli
