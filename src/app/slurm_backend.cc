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
                           slurm::SlurmExecutorOptions options, const Clock& clock)
    : user_(std::move(user)),
      runner_(std::move(env), Duration::seconds(60)),
      executor_(runner_, clock, std::move(options)) {}

Result<std::unique_ptr<SlurmBackend>> SlurmBackend::make(const SlurmFlags& flags,
                                                         const std::string& data_dir,
                                                         PodEventSink& sink, const Clock& clock) {
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
  std::unique_ptr<SlurmBackend> backend(
      new SlurmBackend(slurm::slurm_environment(conf), own_user_name(), options, clock));
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
