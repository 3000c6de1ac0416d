// What /proc says of a running process: CPU time (total and per thread) and
// resident memory, for the API bench's figures.
//
// Contract: values of a process that is gone, or unreadable, are 0 (and no
// threads). Reads files only.
#pragma once

#include <map>

#include <sys/types.h>

namespace allot::bench {

// CPU time (user + system) so far, in seconds: of the process, of each of
// its threads (by thread id), and of its children it has waited for.
struct CpuTime {
  double total_s = 0;
  std::map<int, double> threads;
  double children_s = 0;
};
CpuTime cpu_time(pid_t pid);

// CPU time (user + system) of this process (RUSAGE_SELF) or of its children
// it has waited for (RUSAGE_CHILDREN), in seconds.
double rusage_cpu_s(int who);

// Resident memory (VmRSS) in MiB.
double rss_mib(pid_t pid);

// The most CPU time one thread used between two readings (the admission loop
// while it plans), in seconds.
double busiest_thread_s(const CpuTime& before, const CpuTime& after);

}  // namespace allot::bench
