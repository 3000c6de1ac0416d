// SlurmExecutor's allocation sallocs: each one the launcher named is kept
// with its job, and made sure gone once a poll finds the job ended (SIGTERM,
// then SIGKILL after `salloc_grace`), never a process that is no longer that
// salloc (salloc_process.h). The contract is slurm_executor.h.
#include <csignal>
#include <map>
#include <string>
#include <vector>

#include "backends/slurm/slurm_executor.h"

namespace allot::slurm {

void SlurmExecutor::track_salloc(const std::string& job_id, const SallocProcess& process) {
  MutexLock lock(mu_);
  // A poll that has begun may have listed Slurm's jobs before this one existed.
  sallocs_[job_id] = Salloc{process, listings_ + 1, 0, std::nullopt};
}

void SlurmExecutor::end_sallocs(const std::map<std::string, SlurmJob>& seen, uint64_t listing) {
  struct Due {
    std::string job_id;
    SallocProcess process;
    int signal = SIGTERM;
  };
  std::vector<Due> due;
  {
    MutexLock lock(mu_);
    const Timestamp now = clock_.now();
    for (auto& [job_id, salloc] : sallocs_) {
      const auto found = seen.find(job_id);
      if (found == seen.end() && listing >= salloc.listed_from) ++salloc.missing_polls;
      if (found != seen.end()) salloc.missing_polls = 0;
      const bool ended = found == seen.end() ? salloc.missing_polls >= options_.lost_after
                                             : is_final_job_state(found->second.state);
      if (!ended) continue;
      if (!salloc.kill_at) {
        salloc.kill_at = now + options_.salloc_grace;
        due.push_back({job_id, salloc.process, SIGTERM});
      } else if (*salloc.kill_at <= now) {
        due.push_back({job_id, salloc.process, SIGKILL});
      }
    }
  }
  std::vector<std::string> done;
  for (const Due& d : due) {
    const Signalled sent = signal_salloc(d.process, d.signal);
    if (sent != Signalled::kSent || d.signal == SIGKILL) done.push_back(d.job_id);
    if (sent == Signalled::kGone || options_.logger == nullptr) continue;
    options_.logger->warn(sent == Signalled::kSent
                              ? "a salloc outlived its allocation's end; signalled"
                              : "a salloc outlived its allocation's end and cannot be signalled",
                          {{"job_id", d.job_id},
                           {"pid", std::to_string(d.process.pid)},
                           {"signal", d.signal == SIGKILL ? "KILL" : "TERM"}});
  }
  if (done.empty()) return;
  MutexLock lock(mu_);
  for (const std::string& job_id : done) sallocs_.erase(job_id);
}

}  // namespace allot::slurm
