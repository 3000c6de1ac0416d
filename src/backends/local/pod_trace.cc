#include "backends/local/pod_trace.h"

#include <chrono>
#include <csignal>
#include <thread>

#include <unistd.h>

namespace allot::local {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRescanStep = std::chrono::milliseconds(5);

int signal_members(const PodProcessKey& who, int sig) {
  int signalled = 0;
  for (const pid_t pid : pod_members(read_proc_table(), who, ::getpid())) {
    if (::kill(pid, sig) == 0) ++signalled;
  }
  return signalled;
}

}  // namespace

int signal_pod(const PodTrace& trace, int sig, bool until_gone, Duration settle) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(settle.ms());
  int signalled = 0;
  // The group only while its leader is the pod's (a zombie still is): a group
  // id that is free again could be someone else's.
  const pid_t leader = trace.process.leader;
  const bool leader_here =
      leader > 1 && (trace.process.leader_start == 0 ||
                     process_start_ticks(leader) == trace.process.leader_start);
  if (leader_here && ::kill(-leader, sig) == 0) ++signalled;
  for (const std::string& dir : trace.cgroups) signalled += signal_cgroup(dir, sig, settle);
  int found = signal_members(trace.process, sig);
  signalled += found;
  // Killed processes leave /proc once their parent reaps them: a zombie that
  // stays is counted again, so the rescans end at the deadline at worst.
  while (until_gone && sig == SIGKILL && found > 0 && Clock::now() < deadline) {
    std::this_thread::sleep_for(kRescanStep);
    found = signal_members(trace.process, sig);
    signalled += found;
  }
  return signalled;
}

}  // namespace allot::local
