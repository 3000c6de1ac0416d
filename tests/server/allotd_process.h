// AllotdProcess: the built allotd binary run as a child process for API
// integration tests.
//
// Contract:
// - The constructor makes a fresh temporary folder (mode 0755, so that pods
//   running as allot-<team> users can reach what tests put there); allotd's
//   --data-dir is its `data` subfolder. The destructor stops allotd and
//   removes the folder with everything in it.
// - start() runs `allotd --listen 127.0.0.1:0 --data-dir DATA FLAGS...`,
//   reads the port from its first stdout line (`allotd listening on
//   http://127.0.0.1:PORT`) and returns once that line came, or an error
//   (with allotd's stderr) after the deadline. allotd's stderr goes to
//   `allotd.stderr` in the temporary folder.
// - stop() sends SIGTERM and waits for the exit; after the deadline it sends
//   SIGKILL. kill() is SIGKILL at once (a crash). restart() stops and starts
//   again on the same data folder with the same flags.
// - The child gets SIGKILL when the test process dies.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/types.h>

namespace allot::server_test {

// How a stopped allotd ended.
struct ProcessExit {
  bool exited = false;  // by exit(); else by a signal
  int code = 0;         // the exit code, or the signal
  bool killed_after_deadline = false;
};

class AllotdProcess {
 public:
  AllotdProcess();
  ~AllotdProcess();
  AllotdProcess(const AllotdProcess&) = delete;
  AllotdProcess& operator=(const AllotdProcess&) = delete;

  // Empty on success, else why allotd did not come up.
  [[nodiscard]] std::string start(std::vector<std::string> extra_flags = {},
                                  std::chrono::milliseconds deadline = std::chrono::seconds(30));
  ProcessExit stop(std::chrono::milliseconds deadline = std::chrono::seconds(30));
  ProcessExit kill();
  [[nodiscard]] std::string restart();

  [[nodiscard]] bool running() const { return pid_ > 0; }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] const std::filesystem::path& temp_dir() const { return temp_dir_; }
  [[nodiscard]] std::filesystem::path data_dir() const { return temp_dir_ / "data"; }
  // What allotd wrote on stderr so far (for failure messages).
  [[nodiscard]] std::string stderr_text() const;

  // The binary under test.
  static std::string binary();

 private:
  ProcessExit wait_for_exit(std::chrono::milliseconds deadline);

  std::filesystem::path temp_dir_;
  std::vector<std::string> flags_;
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  int port_ = 0;
};

}  // namespace allot::server_test
