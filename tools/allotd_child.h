// AllotdChild: an allotd binary run as a child process, shared by the API
// integration tests (tests/server, tests/crash) and the API bench
// (`allot-bench api`).
//
// Contract:
// - start() forks and execs `BINARY --listen LISTEN --data-dir DIR FLAGS...`
//   with stderr appended to `stderr_path`, and returns once the first line of
//   its stdout (`allotd listening on http://HOST:PORT`) came: empty on
//   success, else why not (with allotd's stderr); a child that did not come
//   up is killed. started_at() is taken just before the fork.
// - The child gets SIGKILL when this process dies (PR_SET_PDEATHSIG).
// - stop() sends SIGTERM and waits; past the deadline it sends SIGKILL.
//   kill() is SIGKILL at once (a crash). The destructor kills a child that
//   still runs.
// - remove_host_accounts(binary, data_dir) runs `BINARY --remove-host-accounts
//   --data-dir DIR` (src/app/host_accounts.h) to its end when this process is
//   root, after allotd stopped: the Unix accounts allotd made for the
//   folder's teams and users go with the folder. When it fails, its output
//   goes to `failures` (a pod that outlived allotd keeps its account).
// - Not thread-safe.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace allot::tools {

struct AllotdLaunch {
  std::string binary;
  std::string data_dir;
  std::string listen = "127.0.0.1:0";
  std::string stderr_path;  // appended to
  std::vector<std::string> flags;
};

// How a stopped allotd ended.
struct ProcessExit {
  bool exited = false;  // by exit(); else by a signal
  int code = 0;         // the exit code, or the signal
  bool killed_after_deadline = false;
  double seconds = 0;  // from the signal to the exit
};

// The first administrator's API token that allotd wrote to DATA/admin-token
// on its first start; "" when there is none.
std::string read_admin_token(const std::string& data_dir);

void remove_host_accounts(const std::string& binary, const std::string& data_dir,
                          std::FILE* failures);

class AllotdChild {
 public:
  explicit AllotdChild(AllotdLaunch launch) : launch_(std::move(launch)) {}
  ~AllotdChild();
  AllotdChild(const AllotdChild&) = delete;
  AllotdChild& operator=(const AllotdChild&) = delete;

  [[nodiscard]] std::string start(std::chrono::milliseconds deadline);
  ProcessExit stop(std::chrono::milliseconds deadline);
  ProcessExit kill();

  [[nodiscard]] bool running() const { return pid_ > 0; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] std::chrono::steady_clock::time_point started_at() const { return started_at_; }
  [[nodiscard]] const AllotdLaunch& launch() const { return launch_; }
  // What allotd wrote on stderr so far.
  [[nodiscard]] std::string stderr_text() const;
  // The first administrator's API token, which allotd writes to
  // DATA/admin-token on its first start; "" until it exists.
  [[nodiscard]] std::string admin_token() const;

 private:
  ProcessExit wait_for_exit(std::chrono::milliseconds deadline);
  // Reads the first stdout line; empty on success, else why not.
  std::string read_address(std::chrono::milliseconds deadline);

  AllotdLaunch launch_;
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  int port_ = 0;
  std::chrono::steady_clock::time_point started_at_;
};

}  // namespace allot::tools
