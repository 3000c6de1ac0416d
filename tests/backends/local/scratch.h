// Test scaffolding for the local backend: a fresh scratch folder per test,
// team names unique to the test process (their Unix accounts, and those of
// their users, are deleted at the end), a FIFO a pod can signal readiness
// through, and a pod builder.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/pod_process.h"
#include "backends/local/team_identity.h"
#include "backends/local/user_identity.h"

namespace allot::local::testing {

inline bool is_root() { return ::geteuid() == 0; }

// A folder under /tmp, traversable by the team users, removed at the end.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = "/tmp/allot-local-test-XXXXXX";
    path_ = ::mkdtemp(pattern.data()) != nullptr ? pattern : "";
    ::chmod(path_.c_str(), 0711);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::string data_dir() const { return path_ + "/data"; }

 private:
  std::string path_;
};

// Team names unique to this test process; their accounts are deleted at the end.
class ScratchTeams {
 public:
  ~ScratchTeams() {
    for (const std::string& team : teams_) {
      const std::string account = team_account_name(team);
      [[maybe_unused]] const int user_rc =
          std::system(("userdel " + account + " >/dev/null 2>&1").c_str());
      [[maybe_unused]] const int group_rc =
          std::system(("groupdel " + account + " >/dev/null 2>&1").c_str());
    }
  }
  std::string make(const std::string& hint) {
    static std::atomic<int> counter{0};
    teams_.push_back("lt" + std::to_string(::getpid()) + "-" + hint +
                     std::to_string(counter.fetch_add(1)));
    return teams_.back();
  }

 private:
  std::vector<std::string> teams_;
};

// The per-user accounts (user_identity.h) of the test's (team, user) pairs,
// deleted at the end. Declared after ScratchTeams: a team's group cannot be
// deleted while it is some user's primary group.
class ScratchUsers {
 public:
  ~ScratchUsers() {
    for (const std::string& account : accounts_) {
      [[maybe_unused]] const int rc =
          std::system(("userdel " + account + " >/dev/null 2>&1").c_str());
    }
  }
  // The pair's derived account name, remembered for deletion.
  std::string add(const std::string& team, const std::string& user) {
    accounts_.push_back(user_account_name(team, user));
    return accounts_.back();
  }

 private:
  std::vector<std::string> accounts_;
};

// A FIFO that a pod writes into once it is ready (e.g. its signal traps are set).
class ReadySignal {
 public:
  explicit ReadySignal(const std::string& dir) : path_(dir + "/ready.fifo") {
    ::mkfifo(path_.c_str(), 0666);
    ::chmod(path_.c_str(), 0666);
    fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  }
  ~ReadySignal() { ::close(fd_); }
  ReadySignal(const ReadySignal&) = delete;
  ReadySignal& operator=(const ReadySignal&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  // True once something was written, false after `limit`.
  bool wait(std::chrono::milliseconds limit) const {
    pollfd fd{fd_, POLLIN, 0};
    return ::poll(&fd, 1, static_cast<int>(limit.count())) == 1 && (fd.revents & POLLIN) != 0;
  }

 private:
  std::string path_;
  int fd_ = -1;
};

inline PodLaunch shell_pod(uint64_t workload_id, const std::string& team,
                           const std::string& script) {
  PodLaunch pod;
  pod.workload_id = workload_id;
  pod.workload_name = "job";
  pod.namespace_name = "ns";
  pod.team = team;
  pod.node = "node-1";
  pod.command = {"/bin/sh", "-c", script};
  return pod;
}

}  // namespace allot::local::testing
