#include "allotd_process.h"

#include <cerrno>
#include <csignal>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace allot::server_test {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kListening = "allotd listening on http://127.0.0.1:";

std::string errno_text(const std::string& what) {
  return what + ": " + std::error_code(errno, std::generic_category()).message();
}

}  // namespace

std::string AllotdProcess::binary() { return ALLOT_BINARY_DIR "/src/app/allotd"; }

AllotdProcess::AllotdProcess() {
  std::string pattern = (std::filesystem::temp_directory_path() / "allotd-itest-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::system_error(errno, std::generic_category());
  temp_dir_ = pattern;
  // Pods run as allot-<team>: they must be able to reach the data folder and
  // the files tests leave here for them.
  std::filesystem::permissions(temp_dir_, std::filesystem::perms(0755));
}

AllotdProcess::~AllotdProcess() {
  if (running()) stop();
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir_, ignored);
}

std::string AllotdProcess::stderr_text() const {
  std::ifstream in(temp_dir_ / "allotd.stderr");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string AllotdProcess::start(std::vector<std::string> extra_flags,
                                 std::chrono::milliseconds deadline) {
  if (running()) return "allotd is already running";
  flags_ = std::move(extra_flags);
  std::vector<std::string> args = {binary(), "--listen", "127.0.0.1:0", "--data-dir",
                                   data_dir().string()};
  args.insert(args.end(), flags_.begin(), flags_.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const std::string stderr_path = (temp_dir_ / "allotd.stderr").string();

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return errno_text("pipe");
  const int err_fd = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (err_fd < 0) return errno_text("open " + stderr_path);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return errno_text("fork");
  if (pid == 0) {
    // The child: async-signal-safe calls only.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(126);
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  ::close(pipe_fds[1]);
  ::close(err_fd);
  pid_ = pid;
  stdout_fd_ = pipe_fds[0];

  // The first line of stdout carries the port.
  std::string line;
  const Clock::time_point until = Clock::now() + deadline;
  while (line.find('\n') == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) {
      kill();
      return "allotd did not print its address within " + std::to_string(deadline.count()) +
             " ms; stderr: " + stderr_text();
    }
    pollfd fd{stdout_fd_, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buffer[256];
    const ssize_t got = ::read(stdout_fd_, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const ProcessExit exit = wait_for_exit(std::chrono::seconds(5));
      return "allotd exited before listening (" + std::string(exit.exited ? "code " : "signal ") +
             std::to_string(exit.code) + "); stdout: " + line + "; stderr: " + stderr_text();
    }
    line.append(buffer, static_cast<size_t>(got));
  }
  line = line.substr(0, line.find('\n'));
  if (!line.starts_with(kListening)) {
    kill();
    return "unexpected first line of allotd: '" + line + "'";
  }
  port_ = std::stoi(line.substr(kListening.size()));
  return "";
}

ProcessExit AllotdProcess::wait_for_exit(std::chrono::milliseconds deadline) {
  ProcessExit result;
  const Clock::time_point until = Clock::now() + deadline;
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (done < 0 && errno != EINTR) break;
    if (Clock::now() >= until && !result.killed_after_deadline) {
      ::kill(pid_, SIGKILL);
      result.killed_after_deadline = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  result.exited = WIFEXITED(status);
  result.code = result.exited ? WEXITSTATUS(status) : WTERMSIG(status);
  pid_ = -1;
  port_ = 0;
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  stdout_fd_ = -1;
  return result;
}

ProcessExit AllotdProcess::stop(std::chrono::milliseconds deadline) {
  if (!running()) return {};
  ::kill(pid_, SIGTERM);
  return wait_for_exit(deadline);
}

ProcessExit AllotdProcess::kill() {
  if (!running()) return {};
  ::kill(pid_, SIGKILL);
  return wait_for_exit(std::chrono::seconds(30));
}

std::string AllotdProcess::restart() {
  const ProcessExit exit = stop();
  if (!exit.exited || exit.code != 0) {
    return "allotd did not stop cleanly (" + std::string(exit.exited ? "code " : "signal ") +
           std::to_string(exit.code) + ")";
  }
  return start(flags_);
}

}  // namespace allot::server_test
