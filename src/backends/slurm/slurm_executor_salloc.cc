// SlurmExecutor's allocation sallocs: each one the launcher named is kept
// with its job, and made sure gone once a poll finds the job ended (SIGTERM,
// then SIGKILL after `salloc_grace`), never a process that is no longer that
// salloc (salloc_process.h). The contract is slurm_executor.h.
#include <csignal>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "backends/slurm/slurm_executor.h"

namespace allot::slurm {

namespace {

constexpr std::string_view kByNamePrefix = "name:";

// The job `salloc` (kept under `key`) belongs to in `seen`: its id's, or for
// one kept by name a live job of that name first, then an ended one.
const SlurmJob* job_of_salloc(const std::map<std::string, SlurmJob>& seen, const std::string& key,
                              const std::string& job_name) {
  if (job_name.empty()) {
    const auto found = seen.find(key);
    return found == seen.end() ? nullptr : &found->second;
  }
  const SlurmJob* ended = nullptr;
  for (const auto& [id, job] : seen) {
    if (job.name != job_name) continue;
    if (!is_final_job_state(job.state)) return &job;
    ended = &job;
  }
  return ended;
}

}  // namespace

void SlurmExecutor::track_salloc(const std::string& job_id, const SallocProcess& process) {
  MutexLock lock(mu_);
  // A poll that has begun may have listed Slurm's jobs before this one existed.
  sallocs_[job_id] = Salloc{process, "", listings_ + 1, 0, std::nullopt};
}

void SlurmExecutor::watch_running_sallocs(const std::set<std::string>& listed) {
  const std::string& prefix = options_.submit.job_prefix;
  const RunningSallocs running = running_sallocs([&](std::string_view name) {
    return workload_of_job_name(prefix, name).has_value() && listed.contains(std::string(name));
  });
  for (const std::string& name : running.ambiguous) {
    if (options_.logger == nullptr) break;
    options_.logger->warn("several sallocs run for one job name; none of them is watched",
                          {{"job_name", name}});
  }
  MutexLock lock(mu_);
  for (const auto& [name, process] : running.by_job_name) {
    sallocs_[std::string(kByNamePrefix) + name] =
        Salloc{process, name, listings_ + 1, 0, std::nullopt};
  }
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
      const SlurmJob* found = job_of_salloc(seen, job_id, salloc.job_name);
      if (found == nullptr && listing >= salloc.listed_from) ++salloc.missing_polls;
      if (found != nullptr) salloc.missing_polls = 0;
      const bool ended = found == nullptr ? salloc.missing_polls >= options_.lost_after
                                          : is_final_job_state(found->state);
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
