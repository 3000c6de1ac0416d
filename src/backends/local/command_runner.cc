#include "backends/local/command_runner.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/local/errno_status.h"
#include "backends/local/process_spawn.h"

namespace allot::local {
namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr int kFallbackPollMs = 100;  // without a pidfd, how often the child is checked

bool has_ended(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return true;
  }
  return info.si_pid != 0;
}

// Reads what is available now; false once the pipe is closed (EOF or error).
bool drain(int fd, std::string& output) {
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n > 0) {
      const size_t room = kMaxCommandOutput - std::min(output.size(), kMaxCommandOutput);
      output.append(buffer, std::min(room, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

void reap(pid_t pid, CommandOutcome& outcome) {
  int status = 0;
  pid_t got = -1;
  do {
    got = ::waitpid(pid, &status, 0);
  } while (got < 0 && errno == EINTR);
  if (got == pid && WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (got == pid && WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
}

// Waits for `pid` to end while collecting its output from `read_fd`, until `deadline`.
bool wait_for_end(pid_t pid, int read_fd, SteadyClock::time_point deadline, std::string& output) {
  const int pidfd = open_pidfd(pid);
  bool pipe_open = true;
  bool ended = false;
  while (!ended) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) break;
    int timeout = static_cast<int>(std::min<int64_t>(left.count(), INT_MAX));
    if (pidfd < 0) timeout = std::min(timeout, kFallbackPollMs);
    pollfd fds[2] = {{pipe_open ? read_fd : -1, POLLIN, 0}, {pidfd, POLLIN, 0}};
    if (::poll(fds, 2, timeout) < 0 && errno != EINTR) break;
    if (pipe_open && fds[0].revents != 0) pipe_open = drain(read_fd, output);
    ended = (pidfd >= 0 && fds[1].revents != 0) || (pidfd < 0 && has_ended(pid));
  }
  if (pidfd >= 0) ::close(pidfd);
  return ended;
}

}  // namespace

std::string CommandOutcome::first_line() const {
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) return line;
    start = end + 1;
  }
  return "";
}

Result<CommandOutcome> run_command(const std::vector<std::string>& argv,
                                   const std::vector<std::string>& env, Duration timeout) {
  int pipe_fds[2] = {-1, -1};
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return errno_status("pipe", errno);
  ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
  SpawnOptions options;
  options.argv = argv;
  options.env = env;
  options.output_fd = pipe_fds[1];
  const SteadyClock::time_point deadline =
      SteadyClock::now() + std::chrono::milliseconds(std::max<int64_t>(timeout.ms(), 0));
  Result<SpawnedProcess> spawned = spawn_process(options);
  ::close(pipe_fds[1]);
  if (!spawned.ok()) {
    ::close(pipe_fds[0]);
    return spawned.status();
  }
  const pid_t pid = spawned->pid;
  CommandOutcome outcome;
  outcome.timed_out = !wait_for_end(pid, pipe_fds[0], deadline, outcome.output);
  // Before the reap the group id is still ours: end the stragglers (or the whole group).
  ::kill(-pid, SIGKILL);
  reap(pid, outcome);
  drain(pipe_fds[0], outcome.output);
  ::close(pipe_fds[0]);
  if (outcome.timed_out) outcome.signal = 0;
  return outcome;
}

}  // namespace allot::local
