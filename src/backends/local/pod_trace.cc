#include "backends/local/pod_trace.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <set>
#include <thread>

#include <unistd.h>

namespace allot::local {
namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr auto kRescanStep = std::chrono::milliseconds(5);

std::set<pid_t> members_in_proc(const PodProcessKey& who) {
  const std::vector<pid_t> members = pod_members(read_proc_table(), who, ::getpid());
  return {members.begin(), members.end()};
}

int signal_each(const std::set<pid_t>& pids, int sig) {
  int signalled = 0;
  for (const pid_t pid : pids) {
    if (pid > 1 && pid != ::getpid() && ::kill(pid, sig) == 0) ++signalled;
  }
  return signalled;
}

// SIGKILL: the group, then each cgroup at once (freezer or cgroup.kill).
int kill_group_and_cgroups(const PodTrace& trace, bool leader_here, Duration settle) {
  int signalled = 0;
  if (leader_here && ::kill(-trace.process.leader, SIGKILL) == 0) ++signalled;
  for (const std::string& dir : trace.cgroups) signalled += signal_cgroup(dir, SIGKILL, settle);
  return signalled;
}

// Every cgroup of the pod exists and holds no process. Each process of the
// pod is in them (forks included, and no team account can move a process
// out), so then none of it is left anywhere.
bool cgroups_emptied(const std::vector<std::string>& cgroups) {
  return !cgroups.empty() && std::ranges::all_of(cgroups, cgroup_empty);
}

}  // namespace

int signal_pod(const PodTrace& trace, int sig, bool until_gone, Duration settle) {
  const SteadyClock::time_point deadline =
      SteadyClock::now() + std::chrono::milliseconds(settle.ms());
  // The group only while its leader is the pod's (a zombie still is): a group
  // id that is free again could be someone else's.
  const pid_t leader = trace.process.leader;
  const bool leader_here =
      leader > 1 && (trace.process.leader_start == 0 ||
                     process_start_ticks(leader) == trace.process.leader_start);
  if (sig == SIGKILL) {
    int signalled = kill_group_and_cgroups(trace, leader_here, settle);
    // A cgroup holds every process of the pod: /proc is searched without
    // one, and when the pod must be gone while its cgroups are not empty yet
    // (or gone). Searching /proc reads every process's files: a pod's exit
    // must not pay that when its cgroups show that nothing of it is left.
    if (!trace.cgroups.empty() && (!until_gone || cgroups_emptied(trace.cgroups))) {
      return signalled;
    }
    signalled += signal_each(members_in_proc(trace.process), SIGKILL);
    // Killed processes leave /proc once reaped; zombies are not members.
    for (std::set<pid_t> left = until_gone ? members_in_proc(trace.process) : std::set<pid_t>{};
         !left.empty() && SteadyClock::now() < deadline; left = members_in_proc(trace.process)) {
      signalled += signal_each(left, SIGKILL);
      std::this_thread::sleep_for(kRescanStep);
    }
    return signalled;
  }
  const bool scan_proc = trace.cgroups.empty() || until_gone;
  // Any other signal reaches each process once (a handler runs once).
  std::set<pid_t> pids;
  for (const std::string& dir : trace.cgroups) {
    for (const pid_t pid : cgroup_pids(dir)) pids.insert(pid);
  }
  if (scan_proc) pids.merge(members_in_proc(trace.process));
  return signal_each(pids, sig);
}

}  // namespace allot::local
