#include "backends/slurm/command_runner.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace allot::slurm {

std::string without_trailing_space(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string CommandResult::said() const { return without_trailing_space(err + out); }

Result<CommandResult> CommandRunner::run_with_env(const std::vector<std::string>& argv,
                                                  const std::vector<std::string>& extra_env) {
  if (!extra_env.empty()) {
    return failed_precondition("this command runner cannot pass an environment to " + argv.at(0));
  }
  return run(argv);
}

namespace {

using SteadyClock = std::chrono::steady_clock;

std::string path_of(const std::vector<std::string>& env) {
  for (const std::string& entry : env) {
    if (entry.starts_with("PATH=")) return entry.substr(5);
  }
  return "/usr/local/bin:/usr/bin:/bin";
}

// argv[0] as a path: itself when it names one, else found in PATH; empty when absent.
std::string resolve(const std::string& program, const std::string& path) {
  if (program.find('/') != std::string::npos) {
    return ::access(program.c_str(), X_OK) == 0 ? program : std::string();
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string candidate = path.substr(start, end - start) + "/" + program;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

// Reads what is there; false once the pipe is closed.
bool drain(int fd, std::string& into) {
  char buffer[8192];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n > 0) {
      const size_t room =
          ProcessRunner::kMaxOutput - std::min(into.size(), ProcessRunner::kMaxOutput);
      into.append(buffer, std::min(room, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

std::vector<char*> c_strings(const std::vector<std::string>& items) {
  std::vector<char*> out;
  out.reserve(items.size() + 1);
  for (const std::string& item : items) out.push_back(const_cast<char*>(item.c_str()));
  out.push_back(nullptr);
  return out;
}

// Collects both pipes until they close or the deadline passes; false on timeout.
bool collect(int out_fd, int err_fd, SteadyClock::time_point deadline, CommandResult& result) {
  bool out_open = true;
  bool err_open = true;
  while (out_open || err_open) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return false;
    pollfd fds[2] = {{out_open ? out_fd : -1, POLLIN, 0}, {err_open ? err_fd : -1, POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count(), 60'000))) < 0 &&
        errno != EINTR) {
      return false;
    }
    if (out_open && fds[0].revents != 0) out_open = drain(out_fd, result.out);
    if (err_open && fds[1].revents != 0) err_open = drain(err_fd, result.err);
  }
  return true;
}

// `base` with `extra` added; an entry of `extra` replaces one of the same name.
std::vector<std::string> merged_env(const std::vector<std::string>& base,
                                    const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  for (const std::string& entry : base) {
    const std::string name = entry.substr(0, entry.find('=') + 1);
    const bool replaced = std::any_of(extra.begin(), extra.end(),
                                      [&](const std::string& e) { return e.starts_with(name); });
    if (!replaced) out.push_back(entry);
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

}  // namespace

Result<CommandResult> ProcessRunner::run(const std::vector<std::string>& argv) {
  return run_with_env(argv, {});
}

Result<CommandResult> ProcessRunner::run_with_env(const std::vector<std::string>& argv,
                                                  const std::vector<std::string>& extra_env) {
  const std::vector<std::string> env = extra_env.empty() ? env_ : merged_env(env_, extra_env);
  const std::string program = resolve(argv.at(0), path_of(env));
  if (program.empty()) {
    return failed_precondition("cannot run " + argv[0] + ": not found in PATH \"" + path_of(env) +
                               "\" (is Slurm's client installed? scripts/install-deps.sh)");
  }
  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return Status(ErrorCode::kInternal, "pipe failed");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return Status(ErrorCode::kInternal, "pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  std::vector<char*> args = c_strings(argv);
  std::vector<char*> envp = c_strings(env);
  pid_t pid = -1;
  const int spawn_error =
      ::posix_spawn(&pid, program.c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  CommandResult result;
  if (spawn_error == 0) {
    ::fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
    ::fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
    const SteadyClock::time_point deadline =
        SteadyClock::now() + std::chrono::milliseconds(timeout_.ms());
    result.timed_out = !collect(out_pipe[0], err_pipe[0], deadline, result);
    if (result.timed_out) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  if (spawn_error != 0) {
    return failed_precondition("cannot run " + program + ": error " + std::to_string(spawn_error));
  }
  return result;
}

std::vector<std::string> slurm_environment(const std::string& slurm_conf) {
  const char* path = std::getenv("PATH");
  std::vector<std::string> env = {std::string("PATH=") +
                                  (path != nullptr ? path : "/usr/bin:/bin")};
  if (!slurm_conf.empty()) env.push_back("SLURM_CONF=" + slurm_conf);
  return env;
}

}  // namespace allot::slurm
