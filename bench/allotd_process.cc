#include "bench/allotd_process.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace allot::bench {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// utime + stime of a /proc/.../stat line, in seconds; 0 when unreadable.
double stat_cpu_seconds(const std::string& stat) {
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(stat.substr(paren + 2));
  std::string skip;
  for (int field = 3; field < 14; ++field) fields >> skip;  // state .. cmajflt
  double utime = 0;
  double stime = 0;
  fields >> utime >> stime;
  return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace

AllotdProcess::AllotdProcess(const AllotdLaunch& launch) : launch_(launch) {
  std::vector<std::string> args = {launch.binary, "--listen", launch.listen, "--data-dir",
                                   launch.data_dir};
  args.insert(args.end(), launch.extra_args.begin(), launch.extra_args.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, launch.stdout_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, launch.stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  started_at_ = std::chrono::steady_clock::now();
  if (posix_spawn(&pid_, launch.binary.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
    pid_ = -1;
  }
  posix_spawn_file_actions_destroy(&actions);
}

AllotdProcess::~AllotdProcess() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

bool AllotdProcess::reaped_now(int& status) {
  if (pid_ <= 0) return true;
  if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
  pid_ = -1;
  return true;
}

int AllotdProcess::wait_port(std::chrono::milliseconds limit) {
  constexpr std::string_view kPrefix = "allotd listening on http://";
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const std::string out = read_file(launch_.stdout_path);
    const size_t at = out.find(kPrefix);
    const size_t end = at == std::string::npos ? at : out.find('\n', at);
    if (end != std::string::npos) {
      const std::string address = out.substr(at + kPrefix.size(), end - at - kPrefix.size());
      return std::stoi(address.substr(address.rfind(':') + 1));
    }
    int status = 0;
    if (reaped_now(status) || std::chrono::steady_clock::now() >= deadline) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

double AllotdProcess::terminate(std::chrono::milliseconds limit, int& exit_code) {
  exit_code = -1;
  if (pid_ <= 0) return -1;
  const auto start = std::chrono::steady_clock::now();
  ::kill(pid_, SIGTERM);
  for (;;) {
    int status = 0;
    if (reaped_now(status)) {
      exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (std::chrono::steady_clock::now() - start >= limit) {
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      pid_ = -1;
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

double AllotdProcess::rss_mib() const {
  if (pid_ <= 0) return 0;
  std::istringstream status(read_file("/proc/" + std::to_string(pid_) + "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

AllotdProcess::CpuTime AllotdProcess::cpu_time() const {
  CpuTime cpu;
  if (pid_ <= 0) return cpu;
  const std::string proc = "/proc/" + std::to_string(pid_);
  cpu.total_s = stat_cpu_seconds(read_file(proc + "/stat"));
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator(proc + "/task", error)) {
    const int tid = std::atoi(task.path().filename().c_str());
    cpu.threads[tid] = stat_cpu_seconds(read_file(task.path() / "stat"));
  }
  return cpu;
}

double busiest_thread_s(const AllotdProcess::CpuTime& before, const AllotdProcess::CpuTime& after) {
  double busiest = 0;
  for (const auto& [tid, seconds] : after.threads) {
    const auto it = before.threads.find(tid);
    busiest = std::max(busiest, seconds - (it == before.threads.end() ? 0 : it->second));
  }
  return busiest;
}

std::string AllotdProcess::stderr_tail() const {
  const std::string text = read_file(launch_.stderr_path);
  constexpr size_t kTail = 2000;
  return text.size() <= kTail ? text : text.substr(text.size() - kTail);
}

}  // namespace allot::bench
