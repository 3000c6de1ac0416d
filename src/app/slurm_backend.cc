#include "app/slurm_backend.h"

#include <cstdlib>

#include <pwd.h>
#include <unistd.h>

namespace allot::app {
namespace {

std::string own_user_name() {
  const passwd* entry = ::getpwuid(::geteuid());
  return entry != nullptr ? entry->pw_name : "root";
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
