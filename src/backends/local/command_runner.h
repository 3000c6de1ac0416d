// run_command(): runs a short program to completion (no shell), capturing its
// combined stdout and stderr, with a time limit.
//
// Contract: the program runs in its own process group (process_spawn.h) with
// exactly `env`. When its main process ends, whatever is left of its group is
// killed. When `timeout` passes first, the whole group is SIGKILLed and the
// outcome says timed_out. Output beyond kMaxCommandOutput bytes is read and
// dropped. Blocks the calling thread for at most about `timeout`; reaps only
// its own child. Thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/time.h"

namespace allot::local {

inline constexpr size_t kMaxCommandOutput = size_t{64} * 1024;

struct CommandOutcome {
  int exit_code = 0;  // when it exited (127: it could not be started)
  int signal = 0;     // when a signal ended it
  bool timed_out = false;
  std::string output;  // stdout and stderr, interleaved as written

  [[nodiscard]] bool succeeded() const { return !timed_out && signal == 0 && exit_code == 0; }
  // The first non-empty line of the output, without its newline.
  [[nodiscard]] std::string first_line() const;
};

// REQUIRES: !argv.empty().
Result<CommandOutcome> run_command(const std::vector<std::string>& argv,
                                   const std::vector<std::string>& env, Duration timeout);

}  // namespace allot::local
