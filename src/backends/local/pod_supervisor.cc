#include "backends/local/pod_supervisor.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <utility>

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/local/process_spawn.h"
#include "base/check.h"

namespace allot::local {
namespace {

// Without pidfds, ended pods are noticed by checking them this often.
constexpr int kFallbackPollMs = 100;
// Longer graces are capped so that deadlines stay representable.
constexpr int64_t kMaxGraceMs = int64_t{365} * 24 * 3600 * 1000;

// True when `pid` (our unreaped child) has ended; it stays unreaped.
bool has_ended(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return errno == ECHILD;  // reaped behind our back: gone all the same
  }
  return info.si_pid != 0;
}

// Reaps `pid`; exit_code -1 when its status was lost (reaped elsewhere).
void reap(pid_t pid, PodExit& exit) {
  int status = 0;
  pid_t got = -1;
  do {
    got = ::waitpid(pid, &status, 0);
  } while (got < 0 && errno == EINTR);
  if (got != pid) {
    exit.exit_code = -1;
  } else if (WIFEXITED(status)) {
    exit.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    exit.signal = WTERMSIG(status);
  }
}

}  // namespace

PodSupervisor::PodSupervisor(PodExitSink* sink) : sink_(sink) {
  ALLOT_CHECK(sink_ != nullptr);
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  ALLOT_CHECK(wake_fd_ >= 0);
  thread_ = std::thread([this] { run(); });
}

PodSupervisor::~PodSupervisor() {
  {
    std::lock_guard lock(mu_);
    shutting_down_ = true;
  }
  wake();
  thread_.join();
  ::close(wake_fd_);
}

void PodSupervisor::add(SupervisedPod pod) {
  {
    std::lock_guard lock(mu_);
    ALLOT_CHECK(pods_.find(pod.key) == pods_.end());
    Watched watched;
    watched.pid = pod.pid;
    watched.pidfd = open_pidfd(pod.pid);
    watched.cleanup = std::move(pod.cleanup);
    watched.signal = std::move(pod.signal);
    pods_.emplace(pod.key, std::move(watched));
  }
  wake();
}

void PodSupervisor::stop(uint64_t workload_id, Duration grace) {
  const int64_t grace_ms = std::clamp<int64_t>(grace.ms(), 0, kMaxGraceMs);
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(grace_ms);
  {
    std::lock_guard lock(mu_);
    for (auto it = pods_.lower_bound(PodKey{workload_id, INT32_MIN});
         it != pods_.end() && it->first.workload_id == workload_id; ++it) {
      Watched& pod = it->second;
      if (pod.killed || (!pod.stopped && has_ended(pod.pid))) continue;
      if (grace_ms == 0) {
        signal_pod(pod, SIGKILL);
        pod.killed = true;
        pod.kill_at.reset();
      } else {
        if (!pod.stopped) signal_pod(pod, SIGTERM);
        if (!pod.kill_at.has_value() || deadline < *pod.kill_at) pod.kill_at = deadline;
      }
      pod.stopped = true;
    }
  }
  wake();
}

bool PodSupervisor::contains(PodKey key) const {
  std::lock_guard lock(mu_);
  return pods_.find(key) != pods_.end();
}

size_t PodSupervisor::running_count() const {
  std::lock_guard lock(mu_);
  return pods_.size();
}

void PodSupervisor::signal_pod(const Watched& pod, int sig) {
  if (pod.signal) {
    pod.signal(sig);
  } else {
    ::kill(-pod.pid, sig);
  }
}

void PodSupervisor::wake() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = ::write(wake_fd_, &one, sizeof(one));
}

int PodSupervisor::poll_timeout_locked(Clock::time_point now) const {
  int timeout = -1;
  for (const auto& [key, pod] : pods_) {
    if (pod.pidfd < 0) timeout = timeout < 0 ? kFallbackPollMs : std::min(timeout, kFallbackPollMs);
    if (!pod.kill_at.has_value()) continue;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*pod.kill_at - now).count();
    const int left_ms = static_cast<int>(std::clamp<int64_t>(left, 0, INT_MAX));
    timeout = timeout < 0 ? left_ms : std::min(timeout, left_ms);
  }
  return timeout;
}

void PodSupervisor::kill_overdue_locked(Clock::time_point now) {
  for (auto& [key, pod] : pods_) {
    if (pod.killed || !pod.kill_at.has_value() || *pod.kill_at > now) continue;
    signal_pod(pod, SIGKILL);
    pod.killed = true;
    pod.kill_at.reset();
  }
}

std::vector<PodSupervisor::Reaped> PodSupervisor::reap_locked(
    const std::vector<PodKey>& candidates) {
  std::vector<Reaped> out;
  for (const PodKey& key : candidates) {
    auto it = pods_.find(key);
    if (it == pods_.end() || !has_ended(it->second.pid)) continue;
    Watched& pod = it->second;
    // The leader is a zombie, so its group id is still ours: end the group's stragglers.
    ::kill(-pod.pid, SIGKILL);
    Reaped reaped;
    reaped.exit.workload_id = key.workload_id;
    reaped.exit.pod_index = key.pod_index;
    reaped.exit.stopped = pod.stopped;
    reap(pod.pid, reaped.exit);
    if (pod.pidfd >= 0) ::close(pod.pidfd);
    reaped.cleanup = std::move(pod.cleanup);
    out.push_back(std::move(reaped));
    pods_.erase(it);
  }
  return out;
}

void PodSupervisor::run() {
  std::unique_lock lock(mu_);
  while (!shutting_down_) {
    std::vector<pollfd> fds{{wake_fd_, POLLIN, 0}};
    std::vector<PodKey> polled;
    std::vector<PodKey> candidates;  // the pods to check after the wait
    for (const auto& [key, pod] : pods_) {
      if (pod.pidfd < 0) {
        candidates.push_back(key);
        continue;
      }
      fds.push_back({pod.pidfd, POLLIN, 0});
      polled.push_back(key);
    }
    const int timeout = poll_timeout_locked(Clock::now());
    lock.unlock();
    const int ready = ::poll(fds.data(), fds.size(), timeout);
    if (ready > 0 && (fds[0].revents & POLLIN) != 0) {
      uint64_t count = 0;
      [[maybe_unused]] const ssize_t got = ::read(wake_fd_, &count, sizeof(count));
    }
    lock.lock();
    kill_overdue_locked(Clock::now());
    for (size_t i = 0; ready > 0 && i < polled.size(); ++i) {
      if (fds[i + 1].revents != 0) candidates.push_back(polled[i]);
    }
    std::vector<Reaped> reaped = reap_locked(candidates);
    if (reaped.empty()) continue;
    lock.unlock();
    for (Reaped& done : reaped) {
      if (done.cleanup) done.cleanup();
      sink_->on_pod_exit(done.exit);
    }
    lock.lock();
  }
  lock.unlock();
  kill_all_and_reap();
}

void PodSupervisor::kill_all_and_reap() {
  std::map<PodKey, Watched> left;
  {
    std::lock_guard lock(mu_);
    left.swap(pods_);
  }
  for (auto& [key, pod] : left) signal_pod(pod, SIGKILL);
  for (auto& [key, pod] : left) {
    PodExit ignored;
    reap(pod.pid, ignored);
    if (pod.pidfd >= 0) ::close(pod.pidfd);
    if (pod.cleanup) pod.cleanup();
  }
}

}  // namespace allot::local
