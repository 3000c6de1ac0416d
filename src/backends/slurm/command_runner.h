// CommandRunner: how the Slurm backend runs Slurm's client commands
// (sacctmgr, scontrol, squeue): a port of its own, so that the backend's
// logic is tested with a fake and the real runner in one place.
//
// Contract of ProcessRunner (the real one):
// - run(argv) starts argv[0], looked up in the PATH of the environment it was
//   given, with exactly that environment (SLURM_CONF among it), no shell,
//   stdin from /dev/null; it collects stdout and stderr apart (each up to
//   kMaxOutput bytes; the rest is read and dropped) and waits at most
//   `timeout`, after which the child is SIGKILLed and `timed_out` is set.
// - A program that cannot be started (not installed) is kFailedPrecondition
//   naming it; a non-zero exit is not an error here: the caller reads
//   `exit_code` and `err`.
// - run_with_env(argv, extra_env) is run() with "NAME=value" entries added to
//   that environment (one of the same name replaced): how a value that must
//   not be seen by other local users (a workload's env, which may hold
//   secrets) reaches a child. A process's environment is readable only by its
//   owner and root (/proc/PID/environ), its argv by everyone (/proc/PID/cmdline).
// - Thread-safe: no shared state; reaps only its own child.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/time.h"

namespace allot::slurm {

// `text` without its trailing newlines and spaces (a command's output in a message).
std::string without_trailing_space(std::string text);

struct CommandResult {
  int exit_code = 0;
  bool timed_out = false;
  std::string out;
  std::string err;

  [[nodiscard]] bool succeeded() const { return !timed_out && exit_code == 0; }
  // What the command said, for an error message: stderr then stdout, without
  // trailing newlines and spaces.
  [[nodiscard]] std::string said() const;
};

class CommandRunner {
 public:
  virtual ~CommandRunner() = default;
  // REQUIRES: !argv.empty().
  virtual Result<CommandResult> run(const std::vector<std::string>& argv) = 0;
  // run() with `extra_env` ("NAME=value") added to the child's environment. A
  // runner that cannot pass one refuses (kFailedPrecondition) rather than
  // dropping it.
  virtual Result<CommandResult> run_with_env(const std::vector<std::string>& argv,
                                             const std::vector<std::string>& extra_env);
};

class ProcessRunner final : public CommandRunner {
 public:
  static constexpr size_t kMaxOutput = size_t{16} << 20;

  // `env`: "NAME=value" entries; PATH among them is where programs are found.
  ProcessRunner(std::vector<std::string> env, Duration timeout)
      : env_(std::move(env)), timeout_(timeout) {}
  Result<CommandResult> run(const std::vector<std::string>& argv) override;
  Result<CommandResult> run_with_env(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& extra_env) override;

 private:
  std::vector<std::string> env_;
  Duration timeout_;
};

// The environment a ProcessRunner needs to reach a Slurm cluster: this
// process's PATH (or a standard one) and SLURM_CONF when not empty.
std::vector<std::string> slurm_environment(const std::string& slurm_conf);

}  // namespace allot::slurm
