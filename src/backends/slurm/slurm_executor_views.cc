// SlurmExecutor's read side: the Slurm view of a workload's job (job id,
// state, reason, nodes; NOT_SUBMITTED while a submission waits to be
// retried), the ended jobs as sacct accounted them, GPU time per account as
// sreport reports it, and the pods' logs read
// from the job's output files. The rest of the executor is
// slurm_executor.cc; the contract is slurm_executor.h.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/slurm/sacct_usage.h"
#include "backends/slurm/slurm_executor.h"
#include "backends/slurm/sreport_usage.h"

namespace allot::slurm {
namespace {

// The most one read_log() call returns.
constexpr int64_t kMaxSlurmLogReadBytes = int64_t{4} << 20;

}  // namespace

std::optional<SlurmJobView> SlurmExecutor::slurm_view(WorkloadId workload) const {
  MutexLock lock(mu_);
  const auto found = jobs_.find(workload);
  if (const auto waiting = unsubmitted_.find(workload);
      found == jobs_.end() && waiting != unsubmitted_.end()) {
    return SlurmJobView{"", "NOT_SUBMITTED", waiting->second.reason, "", ""};
  }
  if (found == jobs_.end()) {
    const auto ended = ended_.find(workload);
    if (ended == ended_.end()) return std::nullopt;
    return ended->second;
  }
  const SlurmJob& last = found->second.last;
  return SlurmJobView{found->second.id, last.state, last.reason, last.nodes,
                      found->second.misplaced};
}

std::optional<BackendJob> SlurmExecutor::backend_job(WorkloadId workload) const {
  const std::optional<SlurmJobView> view = slurm_view(workload);
  if (!view) return std::nullopt;
  return BackendJob{"slurm",      view->job_id, view->state,
                    view->reason, view->nodes,  view->placed_nodes};
}

Result<std::vector<BackendJobRecord>> SlurmExecutor::accounted_jobs() {
  // sacct writes local time: UTC, as parse_sacct_usage() reads it.
  const Result<CommandResult> listed =
      runner_.run({"env", "TZ=UTC", "sacct", "-n", "-P", "-X", "-a", "-S", "now-7days", "-E", "now",
                   "-s", "CD,F,CA,TO,NF,PR,OOM,DL", "-o", std::string(kSacctUsageFormat)});
  if (!listed.ok()) return listed.status();
  if (!listed->succeeded()) {
    return Status(ErrorCode::kUnavailable, "sacct: " + listed->said());
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<SacctUsage> usage,
                         parse_sacct_usage(listed->out, options_.submit.job_prefix));
  std::vector<BackendJobRecord> out;
  out.reserve(usage.size());
  for (SacctUsage& u : usage) {
    out.push_back({std::move(u.job_id), u.workload, std::move(u.account), u.start, u.end, u.gpus});
  }
  return out;
}

Result<BackendUsage> SlurmExecutor::account_usage(Timestamp from, Timestamp to) {
  std::string cluster;
  {
    MutexLock lock(mu_);
    cluster = cluster_;
  }
  if (cluster.empty()) {
    return Status(
        ErrorCode::kFailedPrecondition,
        "no Slurm cluster yet: apply a policy whose Cluster names spec.slurm.clusterName");
  }
  std::vector<std::string> argv = {"env", "TZ=UTC"};
  for (std::string& arg : sreport_usage_args(cluster, from, to)) argv.push_back(std::move(arg));
  const Result<CommandResult> reported = runner_.run(argv);
  if (!reported.ok()) return reported.status();
  if (!reported->succeeded()) {
    return Status(ErrorCode::kUnavailable, "sreport: " + reported->said());
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<BackendAccountUsage> accounts,
                         parse_sreport_usage(reported->out));
  return BackendUsage{"sreport cluster AccountUtilizationByUser cluster=" + cluster, from, to,
                      std::move(accounts)};
}

std::string SlurmExecutor::log_location(PodId pod) const {
  return pod_log_path(options_.submit.log_dir, pod);
}

Result<std::string> SlurmExecutor::read_log(PodId pod, int64_t offset, int64_t max_bytes) {
  if (offset < 0 || max_bytes < 0) return invalid_argument("negative log offset or length");
  const std::string path = log_location(pod);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return not_found("no log for pod " + std::to_string(pod.index) + " of workload " +
                       std::to_string(pod.workload.value()));
    }
    return Status(ErrorCode::kUnavailable, "open " + path + ": " + std::strerror(errno));
  }
  struct stat info {};
  std::string out;
  if (::fstat(fd, &info) == 0 && info.st_size > offset) {
    out.resize(
        static_cast<size_t>(std::min({max_bytes, kMaxSlurmLogReadBytes, info.st_size - offset})));
    const ssize_t n = ::pread(fd, out.data(), out.size(), static_cast<off_t>(offset));
    out.resize(n > 0 ? static_cast<size_t>(n) : 0);
  }
  ::close(fd);
  return out;
}

}  // namespace allot::slurm
