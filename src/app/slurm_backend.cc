#include "app/slurm_backend.h"

#include <cstdlib>
#include <fstream>
#include <random>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace allot::app {
namespace {

std::string own_user_name() {
  const passwd* entry = ::getpwuid(::geteuid());
  return entry != nullptr ? entry->pw_name : "root";
}

// The job name prefix of this allotd's jobs, `allot-<8 hex>-`, made once and
// kept in DATA/slurm/job-prefix: a restart adopts only its own jobs, never
// those of another allotd on the same Slurm with the same workload ids.
Result<std::string> job_prefix(const std::string& folder) {
  const std::string path = folder + "/job-prefix";
  std::string prefix;
  if (std::ifstream in(path); in && std::getline(in, prefix) && !prefix.empty()) return prefix;
  std::random_device random;
  char hex[9] = {};
  std::snprintf(hex, sizeof hex, "%08x", random());
  prefix = std::string("allot-") + hex + "-";
  std::ofstream out(path, std::ios::trunc);
  out << prefix << "\n";
  out.close();
  if (!out) return Status(ErrorCode::kInternal, "cannot write " + path);
  return prefix;
}

}  // namespace

Result<SyncReport> SlurmBackend::PartitionTracking::apply(const BackendPolicy& desired) {
  Result<SyncReport> report = sync_.apply(desired);
  if (report.ok()) executor_.set_site(desired.site.partition, desired.flavors.size() > 1);
  return report;
}

SlurmBackend::SlurmBackend(std::vector<std::string> env, std::string user,
                           slurm::SlurmExecutorOptions options, const Clock& clock,
                           const std::string& data_dir)
    : user_(std::move(user)),
      layout_(data_dir, /*set_owners=*/true),
      runner_(std::move(env), Duration::seconds(60)),
      executor_(runner_, clock, std::move(options)) {}

Result<slurm::JobOwner> SlurmBackend::owner_of(const WorkloadLaunch& launch) {
  ALLOT_ASSIGN_OR_RETURN(const local::UnixAccount team, teams_.ensure(launch.team.str()));
  local::UnixAccount account = team;
  std::string home = layout_.home_dir(team.user);
  if (!launch.user.empty()) {
    ALLOT_ASSIGN_OR_RETURN(account, users_.ensure(launch.team.str(), launch.user, team));
    home = layout_.user_home_dir(launch.team.str(), account.user);
  }
  const local::DirOwner owner{account.uid, account.gid};
  ALLOT_RETURN_IF_ERROR(layout_.prepare_root());
  ALLOT_RETURN_IF_ERROR(layout_.prepare_shared_dir(launch.team.str(), owner));
  if (launch.user.empty()) {
    ALLOT_RETURN_IF_ERROR(layout_.prepare_home_dir(account.user, owner));
  } else {
    ALLOT_RETURN_IF_ERROR(layout_.prepare_user_home_dir(launch.team.str(), account.user, owner));
  }
  return slurm::JobOwner{account.user, account.uid, account.gid, home};
}

Result<std::unique_ptr<SlurmBackend>> SlurmBackend::make(const SlurmFlags& flags,
                                                         const std::string& data_dir,
                                                         PodEventSink& sink, const Clock& clock,
                                                         Logger& logger) {
  ALLOT_ASSIGN_OR_RETURN(const Duration poll, parse_duration(flags.poll));
  if (poll <= Duration()) return invalid_argument("--slurm-poll must be positive", "--slurm-poll");
  std::string conf = flags.conf;
  if (conf.empty() && std::getenv("SLURM_CONF") != nullptr) conf = std::getenv("SLURM_CONF");
  slurm::SlurmExecutorOptions options;
  options.submit.log_dir = data_dir + "/slurm";
  ::mkdir(options.submit.log_dir.c_str(), 0755);
  ALLOT_ASSIGN_OR_RETURN(options.submit.job_prefix, job_prefix(options.submit.log_dir));
  options.sink = &sink;
  options.poll_interval = poll;
  options.logger = &logger;
  std::unique_ptr<SlurmBackend> backend(
      new SlurmBackend(slurm::slurm_environment(conf), own_user_name(), options, clock, data_dir));
  if (::geteuid() == 0) {  // sbatch --uid needs root; otherwise jobs run as allotd's user
    backend->executor_.set_owner_of(
        [raw = backend.get()](const WorkloadLaunch& launch) { return raw->owner_of(launch); });
  }
  ALLOT_RETURN_IF_ERROR(backend->executor_.start());
  return backend;
}

BackendPorts SlurmBackend::ports() {
  BackendPorts ports;
  ports.policy_sync = &tracking_;
  ports.inventory = &inventory_;
  ports.users = {user_};
  return ports;
}

}  // namespace allot::app
