#include "app/slurm_backend.h"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

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

// The JWT in a token file or $SLURM_JWT: its first line, without "SLURM_JWT=".
std::string slurm_token_text(std::string text) {
  text = text.substr(0, text.find('\n'));
  if (text.starts_with("SLURM_JWT=")) text = text.substr(10);
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

// libslurm with the environment the commands run with (PATH, SLURM_CONF).
Result<std::shared_ptr<slurm::SlurmTransport>> library_transport(const std::string& conf) {
  Result<std::unique_ptr<slurm::LibraryTransport>> made =
      slurm::LibraryTransport::make({conf, slurm::slurm_environment(conf)});
  if (!made.ok()) {
    return Status(ErrorCode::kUnavailable,
                  "cannot reach Slurm through libslurm (--slurm-transport commands runs Slurm's "
                  "commands instead): " +
                      made.status().message());
  }
  return std::shared_ptr<slurm::SlurmTransport>(std::move(*made));
}

}  // namespace

Result<SyncReport> SlurmBackend::PartitionTracking::apply(const BackendPolicy& desired) {
  // slurmrestd is checked before anything is carried into Slurm.
  ALLOT_ASSIGN_OR_RETURN(std::shared_ptr<slurm::RestTransport> transport,
                         backend_.transport_for(desired.site.rest_url));
  Result<SyncReport> report = backend_.sync_.apply(desired);
  if (report.ok()) {
    backend_.executor_.set_site(desired.site.cluster, desired.site.partition,
                                desired.flavors.size() > 1);
    backend_.inventory_.set_rest(transport);
    std::shared_ptr<slurm::SlurmTransport> jobs = transport;
    backend_.executor_.set_transport(jobs ? jobs : backend_.default_transport_);
  }
  return report;
}

Result<SyncReport> SlurmBackend::PartitionTracking::dry_run(const BackendPolicy& desired) {
  ALLOT_RETURN_IF_ERROR(backend_.transport_for(desired.site.rest_url).status());
  return backend_.sync_.dry_run(desired);
}

Result<std::shared_ptr<slurm::RestTransport>> SlurmBackend::transport_for(const std::string& url) {
  if (url.empty()) return std::shared_ptr<slurm::RestTransport>();
  if (rest_token_.empty()) {
    return Status(ErrorCode::kFailedPrecondition,
                  "the Cluster's spec.slurm.rest names slurmrestd (" + url +
                      "), but allotd has no token for it: start allotd with "
                      "--slurm-rest-token-file (scontrol token username=" +
                      rest_user_ + " lifespan=...)");
  }
  slurm::RestSettings settings;
  settings.url = url;
  settings.user = rest_user_;
  settings.token = rest_token_;
  settings.token_for = [this](const std::string& user) { return mint_token(user); };
  settings.placer = [this](const std::string& job_id, const std::string& nodelist) {
    return place_held_job(job_id, nodelist);
  };
  if (rest_poll_squeue_) {
    settings.list_jobs_by = [this] {
      return default_transport_ ? default_transport_->list_jobs() : commands_.list_jobs();
    };
  }
  const char* path = std::getenv("PATH");
  settings.environment = {{"PATH", path != nullptr ? path : "/usr/bin:/bin"}};
  auto rest = std::make_shared<slurm::RestTransport>(std::move(settings));
  if (Status checked = rest->check(); !checked.ok()) {
    return Status(ErrorCode::kFailedPrecondition, checked.message(), "spec.slurm.rest");
  }
  return rest;
}

Result<std::string> SlurmBackend::mint_token(const std::string& user) {
  ALLOT_ASSIGN_OR_RETURN(const slurm::CommandResult minted,
                         runner_.run({"scontrol", "token", "username=" + user, "lifespan=3600"}));
  const std::string token = slurm_token_text(minted.out);
  if (!minted.succeeded() || token.empty()) {
    return Status(ErrorCode::kUnavailable, "cannot mint a slurmrestd token for user " + user +
                                               " (scontrol token): " + minted.err);
  }
  return token;
}

Status SlurmBackend::place_held_job(const std::string& job_id, const std::string& nodelist) {
  for (const std::vector<std::string>& argv :
       {std::vector<std::string>{"scontrol", "update", "JobId=" + job_id,
                                 "ReqNodeList=" + nodelist},
        std::vector<std::string>{"scontrol", "release", job_id}}) {
    ALLOT_ASSIGN_OR_RETURN(const slurm::CommandResult done, runner_.run(argv));
    if (!done.succeeded()) {
      return Status(ErrorCode::kUnavailable, argv[0] + " " + argv[1] + ": " + done.err);
    }
  }
  return Status::ok_status();
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
  ALLOT_ASSIGN_OR_RETURN(const Duration fast_poll, parse_duration(flags.fast_poll));
  if (fast_poll < Duration()) {
    return invalid_argument("--slurm-fast-poll must not be negative", "--slurm-fast-poll");
  }
  std::string conf = flags.conf;
  if (conf.empty() && std::getenv("SLURM_CONF") != nullptr) conf = std::getenv("SLURM_CONF");
  slurm::SlurmExecutorOptions options;
  options.submit.log_dir = data_dir + "/slurm";
  ::mkdir(options.submit.log_dir.c_str(), 0755);
  ALLOT_ASSIGN_OR_RETURN(options.submit.job_prefix, job_prefix(options.submit.log_dir));
  if (flags.submit != "batch" && flags.submit != "allocation") {
    return invalid_argument("--slurm-submit must be batch or allocation", "--slurm-submit");
  }
  options.submit.mode =
      flags.submit == "allocation" ? slurm::SubmitMode::kAllocation : slurm::SubmitMode::kBatch;
  options.sink = &sink;
  options.poll_interval = poll;
  // GET /jobs is every field of every job slurmctld holds (about a second per
  // call at 2,000 jobs): polled through slurmrestd, no fast cadence.
  options.fast_poll_interval = flags.rest_poll == "rest" ? Duration() : fast_poll;
  options.logger = &logger;
  std::unique_ptr<SlurmBackend> backend(
      new SlurmBackend(slurm::slurm_environment(conf), own_user_name(), options, clock, data_dir));
  backend->rest_user_ = flags.rest_user.empty() ? backend->user_ : flags.rest_user;
  backend->rest_poll_squeue_ = flags.rest_poll != "rest";
  if (!flags.rest_token_file.empty()) {
    std::ifstream in(flags.rest_token_file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      return invalid_argument("cannot read --slurm-rest-token-file " + flags.rest_token_file,
                              "--slurm-rest-token-file");
    }
    backend->rest_token_ = slurm_token_text(text.str());
  } else if (const char* jwt = std::getenv("SLURM_JWT"); jwt != nullptr) {
    backend->rest_token_ = slurm_token_text(jwt);
  }
  if (flags.transport == "libslurm") {
    ALLOT_ASSIGN_OR_RETURN(backend->default_transport_, library_transport(conf));
    backend->executor_.set_transport(backend->default_transport_);
  } else if (flags.transport != "commands") {
    return invalid_argument("--slurm-transport must be libslurm or commands", "--slurm-transport");
  }
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
