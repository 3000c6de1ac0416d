// SlurmExecutor: finding in Slurm the job of a submission whose answer was
// lost, and of a run whose job id allotd never stored (slurm_executor.h's
// contract, "never submitted twice").
#include <array>
#include <ctime>

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

std::optional<std::string> SlurmExecutor::job_of_interrupted_run(const WorkloadLaunch& launch) {
  // sacct's -S is local time, as this process's; a minute early, the
  // submission time below decides.
  const int64_t since_s = launch.resume_since->ms() / 1000;
  const auto from = static_cast<time_t>(since_s - 60);
  tm local{};
  std::array<char, 32> text{};
  if (::localtime_r(&from, &local) == nullptr ||
      std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%S", &local) == 0) {
    return std::nullopt;
  }
  const std::string name = job_name_of(options_.submit.job_prefix, launch.workload);
  const Result<CommandResult> listed =
      runner_.run_with_env({"sacct", "-n", "-P", "-X", "-a", "--name=" + name, "-S", text.data(),
                            "-o", "JobIDRaw,Submit"},
                           {"SLURM_TIME_FORMAT=%s"});
  if (!listed.ok() || !listed->succeeded()) return std::nullopt;
  const Result<std::vector<SubmittedJob>> jobs = parse_sacct_submitted(listed->out);
  if (!jobs.ok()) return std::nullopt;
  std::optional<SubmittedJob> latest;
  for (const SubmittedJob& job : *jobs) {
    // Slurm records whole seconds: a job submitted in the admission's second counts.
    if (job.submitted_s >= since_s && (!latest || job.submitted_s >= latest->submitted_s)) {
      latest = job;
    }
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
