#include "backends/slurm/slurm_transport.h"

namespace allot::slurm {
std::vector<std::string> scancel_argv(const std::string& job_id, CancelKind kind) {
  switch (kind) {
    case CancelKind::kCancel: return {"scancel", job_id};
    case CancelKind::kTerm: return {"scancel", "--signal=TERM", "--full", job_id};
    case CancelKind::kKill: return {"scancel", "--signal=KILL", "--full", job_id};
  }
  return {"scancel", job_id};
}

Result<std::string> CommandTransport::answer_of(const Submission& submission) {
  ALLOT_ASSIGN_OR_RETURN(CommandResult result,
                         runner_.run_with_env(submission.argv, submission.env));
  if (result.timed_out) {
    return Status(ErrorCode::kUnavailable, submission.tool + " did not answer in time");
  }
  if (!result.succeeded()) {
    return Status(ErrorCode::kFailedPrecondition,
                  submission.tool + " refused the job: " + result.said());
  }
  return without_trailing_space(result.out);
}

Result<std::string> CommandTransport::submit(const Submission& submission,
                                             const std::optional<JobOwner>& /*owner*/) {
  if (submission.tool == "salloc") {
    ALLOT_ASSIGN_OR_RETURN(AllocationAnswer answer, allocate(submission));
    return answer.job_id;
  }
  ALLOT_ASSIGN_OR_RETURN(std::string id, answer_of(submission));
  return id.substr(0, id.find(';'));  // "id;cluster" on multi-cluster sites
}

Result<AllocationAnswer> CommandTransport::allocate(const Submission& submission) {
  ALLOT_ASSIGN_OR_RETURN(std::string answer, answer_of(submission));
  return parse_allocation_answer(answer);
}

Status CommandTransport::cancel(const std::string& job_id, CancelKind kind) {
  ALLOT_ASSIGN_OR_RETURN(CommandResult result, runner_.run(scancel_argv(job_id, kind)));
  if (!result.succeeded()) {
    return Status(ErrorCode::kUnavailable, "scancel: " + without_trailing_space(result.err));
  }
  return Status::ok_status();
}

Result<std::vector<SlurmJob>> CommandTransport::list_jobs() {
  ALLOT_ASSIGN_OR_RETURN(CommandResult listed, runner_.run({"squeue", "-h", "-a", "-t", "all", "-O",
                                                            std::string(kSqueueFormat)}));
  if (!listed.succeeded()) {
    return Status(ErrorCode::kUnavailable,
                  "cannot list Slurm's jobs (squeue): " + without_trailing_space(listed.err));
  }
  return parse_squeue(listed.out);
}

}  // namespace allot::slurm
