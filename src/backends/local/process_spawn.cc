#include "backends/local/process_spawn.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends/local/errno_status.h"
#include "base/check.h"

namespace allot::local {
namespace {

constexpr const char* kDefaultPath = "/usr/local/bin:/usr/bin:/bin";
constexpr unsigned kCloseRangeCloexec = 1U << 2;  // CLOSE_RANGE_CLOEXEC (Linux 5.11)
constexpr size_t kMaxCgroups = 8;

// Everything the child touches, laid out before vfork() so that the child only
// reads memory and makes system calls.
struct ChildPlan {
  std::vector<char*> argv;
  std::vector<char*> envp;
  std::vector<const char*> candidates;
  const char* program = nullptr;
  const char* working_dir = nullptr;
  bool switch_identity = false;
  uid_t uid = 0;
  gid_t gid = 0;
  int output_fd = -1;
  int devnull_fd = -1;
  int cgroup_fds[kMaxCgroups] = {-1, -1, -1, -1, -1, -1, -1, -1};
  size_t cgroup_count = 0;
  const char* loginuid = nullptr;  // decimal uid for /proc/self/loginuid; null: leave it
  int status_fd = -1;
  int max_fd = 1024;
};

// A message assembled in a fixed buffer: no allocation, no stdio.
class ChildMessage {
 public:
  ChildMessage& add(const char* text) {
    while (text != nullptr && *text != '\0' && size_ < sizeof(buffer_) - 1)
      buffer_[size_++] = *text++;
    return *this;
  }
  ChildMessage& add_number(long value) {
    char digits[24];
    int count = 0;
    unsigned long magnitude =
        value < 0 ? 0UL - static_cast<unsigned long>(value) : static_cast<unsigned long>(value);
    do {
      digits[count++] = static_cast<char>('0' + magnitude % 10);
      magnitude /= 10;
    } while (magnitude != 0);
    if (value < 0) add("-");
    while (count > 0 && size_ < sizeof(buffer_) - 1) buffer_[size_++] = digits[--count];
    return *this;
  }
  ChildMessage& add_error(int err) {
    const char* description = ::strerrordesc_np(err);
    if (description != nullptr) return add(description);
    return add("errno ").add_number(err);
  }
  void write_to(int fd) {
    buffer_[size_++] = '\n';
    if (fd >= 0) {
      [[maybe_unused]] const ssize_t written = ::write(fd, buffer_, size_);
    }
  }

 private:
  char buffer_[512] = {};
  size_t size_ = 0;
};

[[noreturn]] void child_fail(const ChildPlan& plan, ChildMessage& message, int err) {
  message.write_to(plan.output_fd);
  [[maybe_unused]] const ssize_t written = ::write(plan.status_fd, &err, sizeof(err));
  ::_exit(kExecFailedExitCode);
}

// Moves a descriptor above 2 so that the dup2() onto 0, 1 and 2 cannot clobber it.
int lift_fd(int fd) { return fd >= 0 && fd < 3 ? ::fcntl(fd, F_DUPFD_CLOEXEC, 3) : fd; }

void reset_signals() {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &action, nullptr);
  }
  sigset_t empty;
  ::sigemptyset(&empty);
  ::sigprocmask(SIG_SETMASK, &empty, nullptr);
}

void mark_fds_cloexec(int max_fd) {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, 3U, ~0U, kCloseRangeCloexec) == 0) return;
#endif
  for (int fd = 3; fd < max_fd; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

void switch_identity(const ChildPlan& plan) {
  // Raw system calls: glibc's wrappers would try to signal the parent's other
  // threads, which do not exist in the child.
  ChildMessage message;
  if (::syscall(SYS_setgroups, 1, &plan.gid) != 0 || ::syscall(SYS_setgid, plan.gid) != 0) {
    const int err = errno;
    child_fail(
        plan,
        message.add("allot: cannot switch to group ").add_number(plan.gid).add(": ").add_error(err),
        err);
  }
  if (::syscall(SYS_setuid, plan.uid) != 0) {
    const int err = errno;
    child_fail(
        plan,
        message.add("allot: cannot switch to user ").add_number(plan.uid).add(": ").add_error(err),
        err);
  }
}

// Best effort: without audit support or the capability, the pod keeps
// allotd's audit session, which the parent then does not count on.
void start_audit_session(const char* uid_text) {
  const int fd = ::open("/proc/self/loginuid", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t written = ::write(fd, uid_text, ::strlen(uid_text));
  ::close(fd);
}

[[noreturn]] void run_child(ChildPlan& plan) {
  ::setsid();
  plan.output_fd = lift_fd(plan.output_fd);
  plan.devnull_fd = lift_fd(plan.devnull_fd);
  for (size_t i = 0; i < plan.cgroup_count; ++i) plan.cgroup_fds[i] = lift_fd(plan.cgroup_fds[i]);
  plan.status_fd = lift_fd(plan.status_fd);
  ChildMessage message;
  for (size_t i = 0; i < plan.cgroup_count; ++i) {
    if (::write(plan.cgroup_fds[i], "0", 1) != 1) {
      const int err = errno;
      child_fail(plan, message.add("allot: cannot join the pod's cgroup: ").add_error(err), err);
    }
  }
  if (plan.loginuid != nullptr) start_audit_session(plan.loginuid);
  reset_signals();
  const int out = plan.output_fd >= 0 ? plan.output_fd : plan.devnull_fd;
  if (::dup2(plan.devnull_fd, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0) {
    const int err = errno;
    child_fail(plan, message.add("allot: cannot redirect output: ").add_error(err), err);
  }
  plan.output_fd = 2;
  ::umask(0007);
  if (plan.working_dir != nullptr && ::chdir(plan.working_dir) != 0) {
    const int err = errno;
    child_fail(plan,
               message.add("allot: cannot enter ").add(plan.working_dir).add(": ").add_error(err),
               err);
  }
  if (plan.switch_identity) switch_identity(plan);
  mark_fds_cloexec(plan.max_fd);
  int err = ENOENT;
  for (const char* candidate : plan.candidates) {
    ::execve(candidate, plan.argv.data(), plan.envp.data());
    if (errno == EACCES) {
      err = EACCES;
    } else if (errno != ENOENT && errno != ENOTDIR) {
      err = errno;
      break;
    }
  }
  child_fail(plan, message.add("allot: cannot execute ").add(plan.program).add(": ").add_error(err),
             err);
}

std::string path_of(const std::vector<std::string>& env) {
  for (const std::string& entry : env) {
    if (entry.starts_with("PATH=")) return entry.substr(5);
  }
  return kDefaultPath;
}

std::vector<char*> c_strings(const std::vector<std::string>& items) {
  std::vector<char*> out;
  out.reserve(items.size() + 1);
  for (const std::string& item : items) out.push_back(const_cast<char*>(item.c_str()));
  out.push_back(nullptr);
  return out;
}

int read_exec_status(int fd) {
  int err = 0;
  size_t got = 0;
  while (got < sizeof(err)) {
    const ssize_t n = ::read(fd, reinterpret_cast<char*>(&err) + got, sizeof(err) - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  return got == sizeof(err) ? err : 0;
}

}  // namespace

std::vector<std::string> exec_candidates(const std::string& program,
                                         const std::string& path_value) {
  if (program.empty()) return {};
  if (program.find('/') != std::string::npos) return {program};
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path_value.size()) {
    size_t end = path_value.find(':', start);
    if (end == std::string::npos) end = path_value.size();
    const std::string dir = path_value.substr(start, end - start);
    out.push_back((dir.empty() ? std::string(".") : dir) + "/" + program);
    start = end + 1;
  }
  return out;
}

Result<SpawnedProcess> spawn_process(const SpawnOptions& options) {
  ALLOT_CHECK(!options.argv.empty());
  const std::vector<std::string> candidates =
      exec_candidates(options.argv[0], path_of(options.env));
  ChildPlan plan;
  plan.argv = c_strings(options.argv);
  plan.envp = c_strings(options.env);
  for (const std::string& candidate : candidates) plan.candidates.push_back(candidate.c_str());
  plan.program = options.argv[0].c_str();
  plan.working_dir = options.working_dir.empty() ? nullptr : options.working_dir.c_str();
  if (options.credentials.has_value()) {
    plan.switch_identity = true;
    plan.uid = options.credentials->uid;
    plan.gid = options.credentials->gid;
  }
  plan.output_fd = options.output_fd;
  ALLOT_CHECK(options.cgroup_procs_fds.size() <= kMaxCgroups);
  for (const int fd : options.cgroup_procs_fds) plan.cgroup_fds[plan.cgroup_count++] = fd;
  const std::string loginuid =
      std::to_string(options.credentials.has_value() ? options.credentials->uid : ::getuid());
  if (options.new_audit_session) plan.loginuid = loginuid.c_str();
  const long open_max = ::sysconf(_SC_OPEN_MAX);
  plan.max_fd = open_max > 0 && open_max < 65536 ? static_cast<int>(open_max) : 65536;

  plan.devnull_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (plan.devnull_fd < 0) return errno_status("open /dev/null", errno);
  int status_pipe[2] = {-1, -1};
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) {
    const int err = errno;
    ::close(plan.devnull_fd);
    return errno_status("pipe", err);
  }
  plan.status_fd = status_pipe[1];
  const int devnull_fd = plan.devnull_fd;  // the child may move its own copy
  // vfork(), not fork(): the child borrows allotd's memory until it execs,
  // so no page tables are copied and no copy-on-write faults follow. fork()
  // of a large, multi-threaded allotd cost milliseconds per pod (perf: most
  // time in copy_page_range and TLB shootdowns). The child only makes
  // async-signal-safe and raw system calls (run_child) and never returns.
  // Signals stay blocked around it so that no handler of allotd runs in the
  // child; run_child resets every handler and unblocks them before exec.
  sigset_t all;
  sigset_t previous;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  const pid_t pid = ::vfork();
  if (pid == 0) run_child(plan);
  const int fork_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::close(status_pipe[1]);
  ::close(devnull_fd);
  if (pid < 0) {
    ::close(status_pipe[0]);
    return errno_status("fork", fork_errno);
  }
  const int exec_errno = read_exec_status(status_pipe[0]);
  ::close(status_pipe[0]);
  return SpawnedProcess{pid, exec_errno};
}

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  const long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) return static_cast<int>(fd);  // pidfds are always close-on-exec
#endif
  return -1;
}

}  // namespace allot::local
