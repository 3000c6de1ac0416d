// SlurmExecutor's ends told by the job (its end file read before Slurm has
// completed the job) and the sallocs that outlive their allocations. The
// contract is slurm_executor.h.
#include <cerrno>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/slurm/process_watch.h"
#include "backends/slurm/slurm_executor.h"

namespace allot::slurm {
namespace {

// The end file's text; empty when it is missing or empty (the job still runs).
std::string read_end_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || st.st_size == 0) return "";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return "";
  char buffer[64];
  const ssize_t n = ::read(fd, buffer, sizeof(buffer));
  ::close(fd);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
}

}  // namespace

Status SlurmExecutor::prepare_end_file(WorkloadId workload,
                                       const std::optional<JobOwner>& owner) const {
  // Emptied before each run (an earlier run's end names another job id
  // anyway); owned by the job's account, which cannot create files here.
  const std::string path = end_file_path(options_.submit.log_dir, workload);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  bool ready = fd >= 0 && ::fchmod(fd, 0600) == 0;
  if (ready && owner) ready = ::fchown(fd, owner->uid, owner->gid) == 0;
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!ready) {
    return Status(ErrorCode::kInternal,
                  "cannot prepare the job's end file " + path + ": " + std::strerror(error));
  }
  return Status::ok_status();
}

void SlurmExecutor::check_end_files() {
  std::vector<std::pair<WorkloadId, std::string>> watched;
  {
    MutexLock lock(mu_);
    for (const auto& [workload, job] : jobs_) watched.emplace_back(workload, job.id);
  }
  struct End {
    WorkloadId workload;
    std::string id;
    int status = 0;
  };
  std::vector<End> told;
  for (const auto& [workload, id] : watched) {
    const std::string text = read_end_file(end_file_path(options_.submit.log_dir, workload));
    if (const std::optional<int> status = parse_end_file(text, id)) {
      told.push_back({workload, id, *status});
    }
  }
  if (told.empty()) return;
  std::vector<Report> reports;
  {
    MutexLock lock(mu_);
    for (const auto& [workload, id, status] : told) {
      const auto found = jobs_.find(workload);
      if (found == jobs_.end() || found->second.id != id) continue;  // ended meanwhile
      Job& job = found->second;
      if (!job.running_reported) {
        job.running_reported = true;
        reports.push_back({workload, job.pods, PodEvent{}});
      }
      ended(workload, job, JobExit{status, 0, false}, reports);
      told_[job.id] = Told{workload, clock_.now(), job.last.state, false};
      jobs_.erase(found);
    }
    hurry();  // Slurm completes them within moments: seen ended soon
  }
  report(reports);
}

std::vector<std::string> SlurmExecutor::overdue_told_ends() {
  std::vector<std::string> ids;
  const Timestamp now = clock_.now();
  for (auto& [id, told] : told_) {
    if (told.cancelled || told.state != "RUNNING" || now < told.at + options_.end_hold) continue;
    told.cancelled = true;  // once
    ids.push_back(id);
    if (options_.logger != nullptr) {
      options_.logger->warn("a Slurm job still runs after it told allot it ended; cancelled",
                            {{"workload", std::to_string(told.workload.value())}, {"job_id", id}});
    }
  }
  return ids;
}

void SlurmExecutor::follow_told(const std::map<std::string, SlurmJob>& seen) {
  for (auto it = told_.begin(); it != told_.end();) {
    const auto found = seen.find(it->first);
    if (found == seen.end() || is_final_job_state(found->second.state)) {
      it = told_.erase(it);
      continue;
    }
    it->second.state = found->second.state;
    ++it;
  }
}

void SlurmExecutor::watch_salloc(const std::string& job_id, int64_t pid) {
  const std::optional<uint64_t> ticks = process_start_ticks(pid);
  if (!ticks) return;  // not named, or already gone
  MutexLock lock(mu_);
  sallocs_[job_id] = Salloc{pid, *ticks, std::nullopt};
}

void SlurmExecutor::reap_sallocs() {
  std::vector<std::pair<std::string, Salloc>> due;
  {
    MutexLock lock(mu_);
    if (sallocs_.empty()) return;
    std::set<std::string> live;
    for (const auto& [workload, job] : jobs_) live.insert(job.id);
    for (const auto& [workload, handed] : handed_) live.insert(handed.id);
    for (const auto& [id, told] : told_) live.insert(id);
    const Timestamp now = clock_.now();
    for (auto it = sallocs_.begin(); it != sallocs_.end();) {
      Salloc& salloc = it->second;
      if (live.contains(it->first)) {
        salloc.job_gone.reset();
      } else if (!salloc.job_gone) {
        salloc.job_gone = now;
      } else if (now >= *salloc.job_gone + options_.salloc_grace) {
        due.emplace_back(it->first, salloc);
        it = sallocs_.erase(it);
        continue;
      }
      ++it;
    }
  }
  for (const auto& [job_id, salloc] : due) {
    if (!kill_if_same(salloc.pid, salloc.start_ticks) || options_.logger == nullptr) continue;
    options_.logger->warn("killed a salloc that outlived its allocation",
                          {{"job_id", job_id}, {"pid", std::to_string(salloc.pid)}});
  }
}

}  // namespace allot::slurm
