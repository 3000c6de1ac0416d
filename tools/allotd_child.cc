#include "tools/allotd_child.h"

#include <cerrno>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace allot::tools {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kListening = "allotd listening on http";  // http:// or https://

std::string errno_text(const std::string& what) {
  return what + ": " + std::error_code(errno, std::generic_category()).message();
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

AllotdChild::~AllotdChild() {
  if (running()) kill();
}

std::string AllotdChild::stderr_text() const {
  std::ifstream in(launch_.stderr_path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string read_admin_token(const std::string& data_dir) {
  std::ifstream in(data_dir + "/admin-token");
  std::string token;
  std::getline(in, token);
  return token;
}

void remove_host_accounts(const std::string& binary, const std::string& data_dir,
                          std::FILE* failures) {
  if (::geteuid() != 0) return;
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    std::fprintf(failures, "%s\n", errno_text("pipe").c_str());
    return;
  }
  std::vector<std::string> args = {binary, "--remove-host-accounts", "--data-dir", data_dir};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(failures, "%s\n", errno_text("fork").c_str());
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return;
  }
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  ::close(pipe_fds[1]);
  std::string output;
  char buffer[512];
  ssize_t got = 0;
  while ((got = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    output.append(buffer, static_cast<size_t>(got));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  std::fprintf(failures, "%s --remove-host-accounts --data-dir %s failed: %s\n", binary.c_str(),
               data_dir.c_str(), output.c_str());
}

std::string AllotdChild::admin_token() const { return read_admin_token(launch_.data_dir); }

std::string AllotdChild::start(std::chrono::milliseconds deadline) {
  if (running()) return "allotd is already running";
  std::vector<std::string> args = {launch_.binary, "--listen", launch_.listen, "--data-dir",
                                   launch_.data_dir};
  args.insert(args.end(), launch_.flags.begin(), launch_.flags.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return errno_text("pipe");
  const int err_fd =
      ::open(launch_.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (err_fd < 0) return errno_text("open " + launch_.stderr_path);
  const pid_t parent = getpid();
  started_at_ = Clock::now();
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
  return read_address(deadline);
}

std::string AllotdChild::read_address(std::chrono::milliseconds deadline) {
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
    if (ready <= 0) continue;  // EINTR or the deadline: checked above
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
  port_ = std::stoi(line.substr(line.rfind(':') + 1));
  return "";
}

ProcessExit AllotdChild::wait_for_exit(std::chrono::milliseconds deadline) {
  ProcessExit result;
  const Clock::time_point start = Clock::now();
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (done < 0 && errno != EINTR) break;
    if (Clock::now() - start >= deadline && !result.killed_after_deadline) {
      ::kill(pid_, SIGKILL);
      result.killed_after_deadline = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.seconds = seconds_since(start);
  result.exited = WIFEXITED(status);
  result.code = result.exited ? WEXITSTATUS(status) : WTERMSIG(status);
  pid_ = -1;
  port_ = 0;
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  stdout_fd_ = -1;
  return result;
}

ProcessExit AllotdChild::stop(std::chrono::milliseconds deadline) {
  if (!running()) return {};
  ::kill(pid_, SIGTERM);
  return wait_for_exit(deadline);
}

ProcessExit AllotdChild::kill() {
  if (!running()) return {};
  ::kill(pid_, SIGKILL);
  return wait_for_exit(std::chrono::seconds(30));
}

}  // namespace allot::tools
