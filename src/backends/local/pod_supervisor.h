// PodSupervisor: watches the processes of running pods, stops them with a
// grace period, reaps them and reports each exit once.
//
// Contract:
// - add() hands over a spawned, not yet reaped child (its pid is also its
//   process group id). One supervisor thread waits on a pidfd per pod with
//   poll() (or, on kernels without pidfds, checks them every 100 ms). It reaps
//   only the pids it was given: other children of the process are left alone.
// - A pod is signalled through its `signal` function (every process of the
//   pod: pod_trace.h), or its process group when it has none.
// - When a pod's main process ends, the rest of its process group is killed
//   (before the reap, so the group id cannot have been reused), then the pod's
//   cleanup runs (it kills whatever else of the pod is left) and its PodExit
//   goes to the sink, on the supervisor thread, without any supervisor lock
//   held.
// - stop(workload, grace): SIGTERM to each live pod, SIGKILL once the
//   grace has passed (at once for a zero grace); those exits carry
//   stopped = true. A pod that had already ended is reported as it ended. A
//   second stop can only bring the kill earlier.
// - The destructor SIGKILLs every remaining group, reaps them and runs their
//   cleanups; their exits are not reported.
// Thread-safe.
#pragma once

#include <chrono>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <sys/types.h>

#include "backends/local/pod_process.h"
#include "base/time.h"

namespace allot::local {

struct PodKey {
  uint64_t workload_id = 0;
  int32_t pod_index = 0;
  // clang-tidy before 18 sees the 0 of the synthesized `(a <=> b) < 0` as a null
  // pointer (llvm/llvm-project#53961).
  friend auto operator<=>(const PodKey&, const PodKey&) = default;  // NOLINT(modernize-use-nullptr)
};

struct SupervisedPod {
  PodKey key;
  pid_t pid = -1;                   // REQUIRES: a child of this process, not reaped
  std::function<void()> cleanup;    // after the reap: kill the rest, remove the pid file, cgroups
  std::function<void(int)> signal;  // signals every process of the pod; empty: its group
};

class PodSupervisor {
 public:
  // REQUIRES: sink outlives the supervisor.
  explicit PodSupervisor(PodExitSink* sink);
  ~PodSupervisor();
  PodSupervisor(const PodSupervisor&) = delete;
  PodSupervisor& operator=(const PodSupervisor&) = delete;

  // REQUIRES: !contains(pod.key).
  void add(SupervisedPod pod);
  void stop(uint64_t workload_id, Duration grace);
  [[nodiscard]] bool contains(PodKey key) const;
  [[nodiscard]] size_t running_count() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Watched {
    pid_t pid = -1;
    int pidfd = -1;  // -1: polled with waitid
    bool stopped = false;
    bool killed = false;
    std::optional<Clock::time_point> kill_at;
    std::function<void()> cleanup;
    std::function<void(int)> signal;
  };
  struct Reaped {
    PodExit exit;
    std::function<void()> cleanup;
  };

  void run();
  void wake();
  // Under mu_: the poll timeout in ms (-1: none) for the next wait.
  int poll_timeout_locked(Clock::time_point now) const;
  // Under mu_: SIGKILLs the groups whose grace has run out.
  void kill_overdue_locked(Clock::time_point now);
  // Under mu_: reaps the pods that have ended among `candidates`.
  std::vector<Reaped> reap_locked(const std::vector<PodKey>& candidates);
  void kill_all_and_reap();
  static void signal_pod(const Watched& pod, int sig);

  PodExitSink* sink_;
  mutable std::mutex mu_;
  std::map<PodKey, Watched> pods_;  // guarded by mu_
  bool shutting_down_ = false;      // guarded by mu_
  int wake_fd_ = -1;                // an eventfd
  std::thread thread_;
};

}  // namespace allot::local
