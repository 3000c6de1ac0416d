// SlurmExecutor: finding in Slurm the job of a submission whose answer was
// lost, and of a run whose job id allotd never stored (slurm_executor.h's
// contract, "never submitted twice").
#include <array>
#include <ctime>
#include <string>
#include <vector>

#include "backends/slurm/slurm_executor.h"

namespace allot::slurm {

std::optional<std::string> SlurmExecutor::submitted_after_all(WorkloadId workload) {
  const Result<std::vector<SlurmJob>> listed = transport()->list_jobs();
  if (!listed.ok()) return std::nullopt;  // the submission below says why
  const std::string name = job_name_of(options_.submit.job_prefix, workload);
  for (const SlurmJob& job : *listed) {
    if (job.name == name && !is_final_job_state(job.state)) return job.id;
  }
  return std::nullopt;
}

namespace {

// `epoch_s` as sacct's -S and -E read it: local time, as this process's.
std::optional<std::string> sacct_time(int64_t epoch_s) {
  const auto at = static_cast<time_t>(epoch_s);
  tm local{};
  std::array<char, 32> text{};
  if (::localtime_r(&at, &local) == nullptr ||
      std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%S", &local) == 0) {
    return std::nullopt;
  }
  return std::string(text.data());
}

}  // namespace

std::optional<std::string> SlurmExecutor::job_of_interrupted_run(const WorkloadLaunch& launch) {
  const int64_t since_s = launch.resume_since->ms() / 1000;
  const std::string name = job_name_of(options_.submit.job_prefix, launch.workload);
  // slurmctld first: it still holds a job that ended in the last MinJobAge
  // (300 s by default), which sacct's selections by name list only a second
  // or two after `sacct -j` does (seen against Slurm 22.05); then sacct, for
  // older ones (its window a minute wider than asked: the submission time
  // below decides).
  std::vector<std::vector<std::string>> asks = {
      {"squeue", "-h", "-a", "-t", "all", "--name=" + name, "-O", "JobID:|,SubmitTime:"}};
  const std::optional<std::string> from = sacct_time(since_s - 60);
  const std::optional<std::string> until = sacct_time(clock_.now().ms() / 1000 + 60);
  if (from && until) {
    asks.push_back({"sacct", "-n", "-P", "-X", "-a", "--name=" + name, "-S", *from, "-E", *until,
                    "-o", "JobIDRaw,Submit"});
  }
  std::optional<SubmittedJob> latest;
  for (const std::vector<std::string>& argv : asks) {
    const Result<CommandResult> listed = runner_.run_with_env(argv, {"SLURM_TIME_FORMAT=%s"});
    if (!listed.ok() || !listed->succeeded()) continue;
    const Result<std::vector<SubmittedJob>> jobs = parse_sacct_submitted(listed->out);
    if (!jobs.ok()) continue;
    for (const SubmittedJob& job : *jobs) {
      // Slurm records whole seconds: a job submitted in the admission's second counts.
      if (job.submitted_s >= since_s && (!latest || job.submitted_s >= latest->submitted_s)) {
        latest = job;
      }
    }
    if (latest) break;
  }
  if (!latest) return std::nullopt;
  if (options_.logger != nullptr) {
    options_.logger->info(
        "taking over the Slurm job of a run whose job id was never stored",
        {{"workload", std::to_string(launch.workload.value())}, {"job", latest->id}});
  }
  return latest->id;
}

}  // namespace allot::slurm
