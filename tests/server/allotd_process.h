// AllotdProcess: the built allotd binary run as a child process for API
// integration tests, on a temporary folder of its own (the process itself is
// tools/allotd_child.h).
//
// Contract:
// - The constructor makes a fresh temporary folder (mode 0755, so that pods
//   running as allot-<team> users can reach what tests put there); allotd's
//   --data-dir is its `data` subfolder. The destructor stops allotd and
//   removes the folder with everything in it.
// - start() runs `allotd --listen 127.0.0.1:0 --data-dir DATA FLAGS...` and
//   returns once it listens, or an error (with allotd's stderr) after the
//   deadline. allotd's stderr goes to `allotd.stderr` in the temporary folder.
// - The other constructor runs allotd on `data_dir` of another AllotdProcess
//   (a leader and its standby share one folder); its own folder holds only
//   its stderr.
// - The destructor also deletes the Unix accounts recorded in the data
//   folder (`allotd --remove-host-accounts`, tools/allotd_child.h): a fresh
//   folder never adopts them. One that fails (a pod outlived allotd) is
//   printed on stderr and left.
//   When the environment variable ALLOT_TEST_LOG_DIR names a folder, it
//   first copies allotd's stderr there, so that scripts/test.sh can search
//   every allotd log of the run for secrets (scripts/check-secrets.sh).
// - stop() and kill() as AllotdChild's; restart() stops and starts again on
//   the same data folder with the same flags; start_again() starts with
//   them after a stop() or kill().
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <sys/types.h>

#include "tools/allotd_child.h"

namespace allot::server_test {

using tools::ProcessExit;

class AllotdProcess {
 public:
  AllotdProcess();
  explicit AllotdProcess(std::filesystem::path shared_data_dir);
  ~AllotdProcess();
  AllotdProcess(const AllotdProcess&) = delete;
  AllotdProcess& operator=(const AllotdProcess&) = delete;

  // Empty on success, else why allotd did not come up.
  [[nodiscard]] std::string start(std::vector<std::string> extra_flags = {},
                                  std::chrono::milliseconds deadline = std::chrono::seconds(30));
  ProcessExit stop(std::chrono::milliseconds deadline = std::chrono::seconds(30));
  ProcessExit kill();
  [[nodiscard]] std::string restart();
  // start() again with the last start's flags (after stop() or kill()).
  [[nodiscard]] std::string start_again();

  [[nodiscard]] bool running() const { return child_ && child_->running(); }
  [[nodiscard]] int port() const { return child_ ? child_->port() : 0; }
  [[nodiscard]] pid_t pid() const { return child_ ? child_->pid() : -1; }
  [[nodiscard]] const std::filesystem::path& temp_dir() const { return temp_dir_; }
  [[nodiscard]] std::filesystem::path data_dir() const {
    return shared_data_dir_.empty() ? temp_dir_ / "data" : shared_data_dir_;
  }
  // What allotd wrote on stderr so far (for failure messages).
  [[nodiscard]] std::string stderr_text() const;
  // The first administrator's API token (DATA/admin-token); "" before the first start.
  [[nodiscard]] std::string admin_token() const;

  // The binary under test.
  static std::string binary();

  // What the tests' clients (ApiHttp) sent this allotd that its audit log
  // must hold (docs/governance.md): every non-GET request and every answer
  // 401 or 403, with the answer's status. Thread-safe.
  struct SentRequest {
    std::string method;
    std::string target;
    int status = 0;
  };
  void note_sent(SentRequest sent) const;
  [[nodiscard]] std::vector<SentRequest> sent() const;

 private:
  std::filesystem::path temp_dir_;
  std::filesystem::path shared_data_dir_;  // empty: temp_dir_/data
  std::vector<std::string> flags_;
  std::unique_ptr<tools::AllotdChild> child_;
  mutable std::mutex sent_mu_;
  mutable std::vector<SentRequest> sent_;
};

}  // namespace allot::server_test
