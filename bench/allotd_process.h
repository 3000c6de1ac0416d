// AllotdProcess: an allotd that the API bench starts itself (posix_spawn),
// with its stdout and stderr in files, stopped with SIGTERM.
//
// Contract: the constructor spawns at once and records the moment just before
// the exec (started_at), the start of the bench's restart figures. A process
// still running when the object goes gets SIGKILL. Not thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <sys/types.h>

namespace allot::bench {

struct AllotdLaunch {
  std::string binary;
  std::string data_dir;
  std::string listen = "127.0.0.1:0";
  std::string stdout_path;
  std::string stderr_path;
  std::vector<std::string> extra_args;
};

class AllotdProcess {
 public:
  explicit AllotdProcess(const AllotdLaunch& launch);
  ~AllotdProcess();
  AllotdProcess(const AllotdProcess&) = delete;
  AllotdProcess& operator=(const AllotdProcess&) = delete;

  [[nodiscard]] bool spawned() const { return pid_ > 0; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] std::chrono::steady_clock::time_point started_at() const { return started_at_; }

  // The port of the line "allotd listening on http://HOST:PORT" on its stdout,
  // polled every 5 ms; 0 when it exits first or `limit` passes.
  int wait_port(std::chrono::milliseconds limit);

  // SIGTERM, then waits: the seconds until it exited, or -1 after `limit`
  // (then it is killed). `exit_code` gets its exit status.
  double terminate(std::chrono::milliseconds limit, int& exit_code);

  // Resident memory (VmRSS) in MiB; 0 when unknown.
  [[nodiscard]] double rss_mib() const;

  // CPU time (user + system) so far, in seconds: of the process and of each
  // of its threads (by thread id).
  struct CpuTime {
    double total_s = 0;
    std::map<int, double> threads;
  };
  [[nodiscard]] CpuTime cpu_time() const;

  // The last lines of its stderr, for error messages.
  [[nodiscard]] std::string stderr_tail() const;

 private:
  bool reaped_now(int& status);

  AllotdLaunch launch_;
  pid_t pid_ = -1;
  std::chrono::steady_clock::time_point started_at_;
};

// The most CPU time one thread used between two readings (the admission loop
// while it plans), in seconds.
double busiest_thread_s(const AllotdProcess::CpuTime& before, const AllotdProcess::CpuTime& after);

}  // namespace allot::bench
