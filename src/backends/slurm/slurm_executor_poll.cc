// SlurmExecutor's poll: one listing of Slurm's jobs reconciled with what
// allot launched: state and reason changes announced, a started job's nodes
// checked against allot's placement, jobs Slurm requeued handed back to allot,
// orphaned jobs cancelled, and jobs gone from the listing settled through
// sacct (or lost after `lost_after` polls). The rest of the executor is
// slurm_executor.cc and slurm_executor_views.cc; the contract is
// slurm_executor.h.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backends/slurm/node_list.h"
#include "backends/slurm/sacct_usage.h"
#include "backends/slurm/slurm_executor.h"

namespace allot::slurm {
namespace {

std::string comma_joined(const std::vector<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ",") + id;
  return out;
}

}  // namespace

void SlurmExecutor::observe(const std::map<std::string, SlurmJob>& seen,
                            std::vector<std::string>& vanished, std::vector<std::string>& requeued,
                            std::vector<Report>& reports) {
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    Job& job = it->second;
    const auto found = seen.find(job.id);
    if (found == seen.end()) {
      vanished.push_back(job.id);
      ++it;
      continue;
    }
    if (!job.running_reported &&
        (job.last.state != found->second.state || job.last.reason != found->second.reason)) {
      changed_.push_back(it->first);  // a pending job's state or reason: announced
    }
    job.last = found->second;
    job.missing_polls = 0;
    if (!job.running_reported && is_started_job_state(job.last.state)) {
      check_placement(it->first, job);  // once: it is reported running (or ended) below
    }
    if (job.running_reported && !job.stopping && is_requeued_job_state(job.last.state)) {
      requeued.push_back(job.id);  // Slurm requeued it: allot places the workload again
      ended(it->first, job, JobExit{0, 9, true}, reports);
      it = jobs_.erase(it);
      continue;
    }
    if (is_final_job_state(job.last.state)) {
      ended(it->first, job, exit_of(job.last), reports);
      it = jobs_.erase(it);
      continue;
    }
    if (!job.running_reported && is_started_job_state(job.last.state)) {
      job.running_reported = true;
      reports.push_back({it->first, job.pods, PodEvent{}});
    }
    ++it;
  }
}

void SlurmExecutor::update_handovers(const std::map<std::string, SlurmJob>& seen, uint64_t listing,
                                     std::vector<std::string>& unlisted) {
  for (auto it = handed_.begin(); it != handed_.end();) {
    Handed& handed = it->second;
    const auto found = seen.find(handed.id);
    if (found != seen.end()) {
      handed.last = found->second;
      handed.missing_polls = 0;
      it = handed.last.state == "CANCELLED" ? handed_.erase(it) : std::next(it);
      continue;
    }
    // Not listed: a listing begun before its sbatch answered (nothing to
    // judge), a job seen ending and since purged (its launch settles it), or
    // one sacct must say more of.
    if (listing >= handed.listed_from && !is_final_job_state(handed.last.state)) {
      unlisted.push_back(handed.id);
    }
    ++it;
  }
}

void SlurmExecutor::settle_unlisted_handovers(const std::vector<std::string>& unlisted,
                                              const std::map<std::string, SlurmJob>& accounted) {
  for (auto it = handed_.begin(); it != handed_.end();) {
    Handed& handed = it->second;
    if (std::find(unlisted.begin(), unlisted.end(), handed.id) == unlisted.end()) {
      ++it;
      continue;
    }
    const auto found = accounted.find(handed.id);
    if (found != accounted.end() && is_final_job_state(found->second.state)) {
      if (found->second.state == "CANCELLED") {
        it = handed_.erase(it);  // cancelled around allot: the launch submits afresh
        continue;
      }
      handed.last.state = found->second.state;  // ran on its own: its launch reports it
      handed.last.wait_status = found->second.wait_status;
      handed.missing_polls = 0;
      ++it;
      continue;
    }
    const bool lost = ++handed.missing_polls >= options_.lost_after;
    it = lost ? handed_.erase(it) : std::next(it);
  }
}

void SlurmExecutor::check_placement(WorkloadId workload, Job& job) {
  job.misplaced = placed_elsewhere(job.placed, job.last.nodes);
  if (job.misplaced.empty() || options_.logger == nullptr) return;
  options_.logger->warn("Slurm runs a job on other nodes than allot placed it on",
                        {{"workload", std::to_string(workload.value())},
                         {"job", job.id},
                         {"slurm", job.last.nodes},
                         {"allot", job.misplaced}});
}

std::vector<SlurmJob> SlurmExecutor::orphans(const std::map<std::string, SlurmJob>& seen,
                                             uint64_t listing) {
  std::set<std::string> known;
  for (auto it = dropped_.begin(); it != dropped_.end();) {
    const auto found = seen.find(it->first);
    const bool settled = found == seen.end() || is_final_job_state(found->second.state);
    if (listing >= it->second && settled) {
      it = dropped_.erase(it);  // cancelled by allot, and a listing since shows it so
      continue;
    }
    known.insert(it->first);
    ++it;
  }
  for (const auto& [workload, job] : jobs_) known.insert(job.id);
  for (const auto& [workload, handed] : handed_) known.insert(handed.id);
  const bool adopting = clock_.now() < adopt_until_;
  std::vector<SlurmJob> out;
  for (const auto& [id, job] : seen) {
    const auto workload = workload_of_job_name(options_.submit.job_prefix, job.name);
    if (!workload || is_final_job_state(job.state) || known.contains(id)) continue;
    if (submitting_.contains(*workload)) continue;   // its sbatch has not answered yet
    if (unsubmitted_.contains(*workload)) continue;  // adopted when it is submitted again
    const auto adoptable = adoptable_.find(*workload);
    if (adoptable != adoptable_.end() && adoptable->second.id == job.id) {
      if (adopting) continue;
      adoptable_.erase(adoptable);
    }
    out.push_back(job);
  }
  return out;
}

void SlurmExecutor::cancel_strays(const std::vector<std::string>& requeued,
                                  const std::vector<SlurmJob>& orphaned) {
  for (const std::string& id : requeued) {
    if (options_.logger != nullptr) {
      options_.logger->warn("Slurm requeued a job; allot requeues its workload", {{"job_id", id}});
    }
    cancel_quietly(id, CancelKind::kCancel);
  }
  for (const SlurmJob& job : orphaned) {
    if (options_.logger != nullptr) {
      options_.logger->warn("cancelling an orphaned Slurm job",
                            {{"job_id", job.id}, {"job_name", job.name}, {"state", job.state}});
    }
    cancel_quietly(job.id, CancelKind::kCancel);
  }
}

void SlurmExecutor::settle_vanished(const std::vector<std::string>& vanished,
                                    const std::map<std::string, SlurmJob>& accounted,
                                    std::vector<Report>& reports) {
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    Job& job = it->second;
    if (std::find(vanished.begin(), vanished.end(), job.id) == vanished.end()) {
      ++it;
      continue;
    }
    const auto found = accounted.find(job.id);
    if (found != accounted.end() && is_final_job_state(found->second.state)) {
      job.last.state = found->second.state;
      job.last.wait_status = found->second.wait_status;
      ended(it->first, job, exit_of(job.last), reports);
      it = jobs_.erase(it);
      continue;
    }
    ++job.missing_polls;
    if (job.missing_polls >= options_.lost_after) {
      job.last.state = "LOST";
      ended(it->first, job, JobExit{0, 9, true}, reports);
      it = jobs_.erase(it);
      continue;
    }
    ++it;
  }
}

void SlurmExecutor::settle_through_sacct(const std::vector<std::string>& vanished,
                                         const std::vector<std::string>& unlisted,
                                         std::vector<Report>& reports) {
  std::vector<std::string> ids = vanished;
  ids.insert(ids.end(), unlisted.begin(), unlisted.end());
  const Result<CommandResult> acct = runner_.run(
      {"sacct", "-n", "-P", "-X", "-j", comma_joined(ids), "-o", "JobIDRaw,State,ExitCode"});
  if (!acct.ok() || !acct->succeeded()) return;  // sacct unreachable: judged at the next poll
  std::map<std::string, SlurmJob> accounted;
  if (const auto parsed = parse_sacct(acct->out); parsed.ok()) {
    for (const SlurmJob& job : *parsed) accounted[job.id] = job;
  }
  MutexLock lock(mu_);
  settle_vanished(vanished, accounted, reports);
  settle_unlisted_handovers(unlisted, accounted);
}

void SlurmExecutor::poll_once() {
  MutexLock poll(poll_mu_);
  std::vector<std::string> kills;
  uint64_t listing = 0;
  {
    MutexLock lock(mu_);
    listing = ++listings_;
    kills = due_kills();
    requeue_due_retries();
    if (!kills.empty()) hurry();
  }
  for (const std::string& id : kills) {
    cancel_quietly(id, CancelKind::kCancel);  // CANCELLED in Slurm's records if it still runs
    cancel_quietly(id, CancelKind::kKill);
  }
  // Slurm unreachable or an answer not understood: keep what we knew.
  const Result<std::vector<SlurmJob>> jobs = transport()->list_jobs();
  if (!jobs.ok()) return;
  std::map<std::string, SlurmJob> seen;
  for (const SlurmJob& job : *jobs) seen[job.id] = job;
  std::vector<Report> reports;
  std::vector<std::string> vanished;
  std::vector<std::string> unlisted;
  std::vector<std::string> requeued;
  std::vector<SlurmJob> orphaned;
  std::vector<WorkloadId> changed;
  {
    MutexLock lock(mu_);
    observe(seen, vanished, requeued, reports);
    update_handovers(seen, listing, unlisted);
    orphaned = orphans(seen, listing);
    changed.swap(changed_);
  }
  cancel_strays(requeued, orphaned);
  end_sallocs(seen, listing);
  for (const WorkloadId workload : changed) announce_job(workload);
  if (!vanished.empty() || !unlisted.empty()) settle_through_sacct(vanished, unlisted, reports);
  if (!reports.empty()) {
    MutexLock lock(mu_);
    hurry();  // work turns over: the next start or end is likely soon
  }
  report(reports);
}

}  // namespace allot::slurm
