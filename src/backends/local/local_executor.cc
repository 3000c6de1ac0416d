#include "backends/local/local_executor.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/local/cgroup_pool.h"
#include "backends/local/checkpoint_scan.h"
#include "backends/local/errno_status.h"
#include "backends/local/gpu_device_rules.h"
#include "backends/local/pod_activity.h"
#include "backends/local/pod_command.h"
#include "backends/local/pod_trace.h"
#include "backends/local/proc_hidepid.h"
#include "backends/local/proc_table.h"
#include "backends/local/process_spawn.h"
#include "base/check.h"

namespace allot::local {
namespace {

// read_log() never returns more than this at once, whatever is asked.
constexpr int64_t kMaxLogRead = int64_t{16} << 20;

std::unique_ptr<PodCgroupPool> open_cgroups(const LocalExecutorOptions& options) {
  if (!options.use_cgroups) return CgroupPool::disabled("disabled by configuration");
  if (::geteuid() != 0) return CgroupPool::disabled("not running as root");
  return open_pod_cgroups(options.cgroup_root);
}

std::vector<GpuDevice> machine_gpus(const LocalExecutorOptions& options) {
  if (options.gpus.has_value()) return *options.gpus;
  return discover_gpus(options.nvml_library.c_str()).devices;
}

// The device files found, and those of the GPUs NVML (or the options) named.
std::vector<int32_t> machine_gpu_minors(const std::string& dev_dir,
                                        const std::vector<GpuDevice>& gpus) {
  std::set<int32_t> minors;
  for (const int32_t minor : gpu_device_minors(dev_dir)) minors.insert(minor);
  for (const GpuDevice& gpu : gpus) minors.insert(gpu.minor >= 0 ? gpu.minor : gpu.index);
  return {minors.begin(), minors.end()};
}

std::string host_node_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

GpuUsageSample gpu_usage_sample(const GpuReading& reading, const std::string& node) {
  GpuUsageSample sample;
  sample.node = node;
  sample.gpu = reading.index;
  sample.uuid = reading.uuid;
  sample.utilization = reading.utilization;
  sample.memory_used_bytes = reading.memory_used_bytes;
  sample.memory_total_bytes = reading.memory_total_bytes;
  sample.at = reading.at;
  return sample;
}

// "<tag>-<workload>-<pod>": the tag (of the data folder) keeps the pods of two
// allotd on one machine (tests, say) out of each other's cgroups.
std::string cgroup_name(const std::string& data_root, const PodLaunch& pod) {
  uint32_t hash = 2166136261U;
  for (const char c : data_root) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 16777619U;
  }
  char tag[9];
  std::snprintf(tag, sizeof(tag), "%08x", hash);
  return std::string(tag) + "-" + std::to_string(pod.workload_id) + "-" +
         std::to_string(pod.pod_index);
}

// What finds every process of a pod just spawned: its audit session only when
// the kernel gave it one of its own (not allotd's).
PodTrace trace_of(pid_t pid, std::vector<std::string> cgroups) {
  PodTrace trace;
  trace.process.leader = pid;
  trace.process.leader_start = process_start_ticks(pid);
  const uint32_t audit = audit_session_of(pid);
  if (audit != audit_session_of(::getpid())) trace.process.audit_session = audit;
  trace.cgroups = std::move(cgroups);
  return trace;
}

// Kills and reaps a pod that cannot be supervised.
void abandon(const PodTrace& trace) {
  const pid_t pid = trace.process.leader;
  signal_pod(trace, SIGKILL, false);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

LocalExecutor::LocalExecutor(LocalExecutorOptions options)
    : options_(std::move(options)),
      logger_(options_.logger != nullptr ? *options_.logger : null_logger_),
      as_team_users_(options_.run_as_team_users && ::geteuid() == 0),
      layout_(options_.data_dir, ::geteuid() == 0),
      identities_(layout_),
      user_identities_(layout_),
      self_(current_account()),
      gpus_(machine_gpus(options_)),
      gpu_minors_(machine_gpu_minors(options_.dev_dir, gpus_)),
      cgroups_(open_cgroups(options_)),
      node_name_(options_.node_name.empty() ? host_node_name() : options_.node_name),
      gpu_sampler_(
          std::make_unique<GpuSampler>(options_.nvml_library.c_str(),
                                       options_.clock != nullptr ? *options_.clock : system_clock_,
                                       options_.gpu_sample_interval)),
      exits_(options_.sink),
      supervisor_(&exits_) {
  ALLOT_CHECK(!options_.data_dir.empty());
  ALLOT_CHECK(options_.sink != nullptr);
  announce();
  gpu_sampler_->start();
  if (options_.kill_stale_pods_at_start) {
    for (const StalePod& stale : kill_stale_pods(options_.data_dir)) {
      logger_.warn("local backend: killed a pod a previous allotd left behind",
                   {{"pid_file", stale.pid_file},
                    {"process_group", std::to_string(stale.pgid)},
                    {"note", stale.note}});
    }
  }
}

LocalExecutor::~LocalExecutor() = default;

void LocalExecutor::announce() {
  if (options_.run_as_team_users && !as_team_users_) {
    logger_.warn(
        "local backend: not running as root; pods run as the current user, not as "
        "per-team users",
        {{"user", self_.user}});
  }
  if (options_.use_cgroups && !cgroups_->available()) {
    logger_.warn(
        "local backend: no usable cgroups; pods run without resource limits, and their "
        "processes are found through /proc when they stop",
        {{"reason", cgroups_->reason()}});
  } else if (cgroups_->available()) {
    logger_.info("local backend: pods run in cgroups", {{"kind", cgroups_->kind()}});
    if (!cgroups_->limits_pids() && options_.max_pids_per_pod > 0) {
      logger_.warn(
          "local backend: no pids controller; the number of a pod's processes is not "
          "limited",
          {{"kind", cgroups_->kind()}});
    }
    if (cgroups_->kind().starts_with("cgroup v1")) {
      logger_.warn("local backend: cgroup v1: pods' CPU and memory are not limited",
                   {{"kind", cgroups_->kind()}});
    }
  }
  check_proc();
  announce_gpu_isolation();
  if (const Status root = layout_.prepare_root(); !root.ok()) {
    logger_.error("local backend: cannot prepare the data directory",
                  {{"error", root.to_string()}});
  }
}

void LocalExecutor::check_proc() {
  const Result<ProcMount> mount = read_proc_mount(options_.proc_mountinfo);
  proc_hidden_ = mount.ok() && mount->hides_other_users;
  if (proc_hidden_) return;
  const std::string options = mount.ok() ? mount->options : mount.status().message();
  if (options_.remount_proc_hidepid) {
    const Status remounted = remount_proc_hidepid();
    if (remounted.ok()) {
      proc_hidden_ = true;
      logger_.info("local backend: remounted /proc with hidepid=invisible", {{"was", options}});
      return;
    }
    logger_.warn("local backend: cannot remount /proc with hidepid=invisible",
                 {{"error", remounted.to_string()}, {"host_setting", kHidepidHostSetting}});
    return;
  }
  logger_.warn(
      "local backend: /proc shows every process to every pod: another team's command lines "
      "are readable; set hidepid on the host",
      {{"proc_options", options}, {"host_setting", kHidepidHostSetting}});
}

void LocalExecutor::announce_gpu_isolation() {
  if (gpu_minors_.empty() || cgroups_->applies_device_rules()) return;
  const std::string why = cgroups_->kind() == "cgroup v2"
                              ? "cgroup v2 needs an eBPF device program, which allot does not load"
                              : "no cgroup v1 devices controller (" + cgroups_->kind() + ")";
  logger_.warn(
      "local backend: GPUs are isolated by CUDA_VISIBLE_DEVICES only: every pod can open "
      "every /dev/nvidia*",
      {{"reason", why}});
}

std::string LocalExecutor::checkpoint_dir(const CheckpointOwner& owner) const {
  return layout_.checkpoint_dir(owner.team.str(), owner.namespace_name, owner.name,
                                owner.workload.value());
}

std::optional<Timestamp> LocalExecutor::last_checkpoint(const std::string& checkpoint_dir) const {
  const std::string teams = layout_.root() + "/teams/";
  if (!checkpoint_dir.starts_with(teams) ||
      checkpoint_dir.find("/checkpoints/") == std::string::npos ||
      checkpoint_dir.find("/..") != std::string::npos) {
    return std::nullopt;
  }
  return newest_file_time(checkpoint_dir);
}

std::optional<ActivitySample> LocalExecutor::activity(WorkloadId workload) {
  std::string heartbeat;
  {
    std::lock_guard lock(launch_mu_);
    auto it = work_dirs_.find(workload.value());
    if (it == work_dirs_.end()) return std::nullopt;
    heartbeat = heartbeat_path(it->second);
  }
  // The pid files of its running pods: "<id>-<pod>.pid" under the run folder.
  std::vector<PodTrace> traces;
  const std::string prefix = std::to_string(workload.value()) + "-";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(layout_.run_dir(), error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(".pid")) continue;
    if (auto read = read_pod_pid_file(entry.path().string()); read.ok()) {
      traces.push_back(read->first);
    }
  }
  return read_pod_activity(traces, heartbeat);
}

std::vector<GpuUsageSample> LocalExecutor::gpu_usage() {
  const std::vector<GpuReading> readings = gpu_sampler_->latest();
  std::vector<GpuUsageSample> out;
  std::lock_guard lock(launch_mu_);
  for (const GpuReading& reading : readings) {
    auto held = gpu_holders_.find(reading.index);
    if (held == gpu_holders_.end() || held->second.empty()) {
      out.push_back(gpu_usage_sample(reading, node_name_));
      continue;
    }
    for (const GpuHolder& holder : held->second) {
      GpuUsageSample sample = gpu_usage_sample(reading, holder.node);
      sample.team = holder.team;
      sample.workload = WorkloadId(holder.pod.workload_id);
      sample.pod = holder.pod.pod_index;
      out.push_back(std::move(sample));
    }
  }
  return out;
}

void LocalExecutor::hold_gpus(const PodLaunch& pod) {
  std::lock_guard lock(launch_mu_);
  for (const int32_t gpu : pod.gpus) {
    gpu_holders_[gpu].push_back({PodKey{pod.workload_id, pod.pod_index}, pod.team, pod.node});
  }
}

void LocalExecutor::release_gpus(const PodKey& pod) {
  std::lock_guard lock(launch_mu_);
  for (auto it = gpu_holders_.begin(); it != gpu_holders_.end();) {
    std::erase_if(it->second, [&](const GpuHolder& holder) { return holder.pod == pod; });
    it = it->second.empty() ? gpu_holders_.erase(it) : std::next(it);
  }
}

std::vector<StalePod> LocalExecutor::kill_stale_pods(const std::string& data_dir) {
  return local::kill_stale_pods(DataLayout(data_dir, false).run_dir());
}

void LocalExecutor::launch(const WorkloadLaunch& launch) {
  for (const PodLaunch& pod : pods_of(launch)) {
    PodEvent event;
    event.pod = {launch.workload, pod.pod_index};
    const Status started = launch_pod(pod);
    if (started.ok()) {
      event.phase = PodPhase::kRunning;
    } else {
      event.phase = PodPhase::kExited;
      event.exit_code = 127;
      event.launch_error = started.message();
    }
    options_.sink->on_pod_event(event);
  }
}

Status LocalExecutor::launch_pod(const PodLaunch& pod) {
  ALLOT_RETURN_IF_ERROR(validate_pod_launch(pod));
  const PodKey key{pod.workload_id, pod.pod_index};
  {
    std::lock_guard lock(launch_mu_);
    if (supervisor_.contains(key) || !launching_.insert(key).second) {
      return {ErrorCode::kAlreadyExists, "pod " + std::to_string(pod.pod_index) + " of workload " +
                                             std::to_string(pod.workload_id) +
                                             " is already running"};
    }
  }
  Status status = start(pod);
  std::lock_guard lock(launch_mu_);
  launching_.erase(key);
  return status;
}

Result<LocalExecutor::PodIdentity> LocalExecutor::identity_for(const PodLaunch& pod) {
  if (!as_team_users_) return PodIdentity{self_, layout_.home_dir(self_.user), false};
  ALLOT_ASSIGN_OR_RETURN(const UnixAccount team, identities_.ensure(pod.team));
  if (pod.user.empty()) return PodIdentity{team, layout_.home_dir(team.user), false};
  ALLOT_ASSIGN_OR_RETURN(const UnixAccount user, user_identities_.ensure(pod.team, pod.user, team));
  return PodIdentity{user, layout_.user_home_dir(pod.team, user.user), true};
}

Status LocalExecutor::prepare_dirs(const PodLaunch& pod, const PodIdentity& identity) const {
  const DirOwner owner{identity.account.uid, identity.account.gid};
  ALLOT_RETURN_IF_ERROR(layout_.prepare_root());
  ALLOT_RETURN_IF_ERROR(layout_.prepare_shared_dir(pod.team, owner));
  if (identity.per_user) {
    ALLOT_RETURN_IF_ERROR(layout_.prepare_user_home_dir(pod.team, identity.account.user, owner));
  } else {
    ALLOT_RETURN_IF_ERROR(layout_.prepare_home_dir(identity.account.user, owner));
  }
  ALLOT_RETURN_IF_ERROR(
      layout_.prepare_work_dir(pod.namespace_name, pod.workload_name, pod.workload_id, owner));
  ALLOT_RETURN_IF_ERROR(layout_.prepare_log_dir(pod.workload_id));
  if (!pod.checkpoint_dir.empty()) {
    const std::string own =
        layout_.checkpoint_dir(pod.team, pod.namespace_name, pod.workload_name, pod.workload_id);
    if (pod.checkpoint_dir != own) {
      return invalid_argument("checkpoint folder " + pod.checkpoint_dir +
                              " is not the workload's (" + own + ")");
    }
    ALLOT_RETURN_IF_ERROR(layout_.prepare_checkpoint_dir(
        pod.team, pod.namespace_name, pod.workload_name, pod.workload_id, owner));
  }
  return layout_.prepare_run_dir();
}

Status LocalExecutor::start(const PodLaunch& pod) {
  ALLOT_ASSIGN_OR_RETURN(const PodIdentity identity, identity_for(pod));
  ALLOT_RETURN_IF_ERROR(prepare_dirs(pod, identity));
  const UnixAccount& account = identity.account;
  SpawnOptions spawn;
  spawn.argv = pod_argv(pod);
  spawn.env = pod_env(pod, PodPlace{account.user, identity.home_dir, layout_.shared_dir(pod.team)},
                      cuda_visible_devices(pod.gpus, gpus_));
  spawn.working_dir = layout_.work_dir(pod.namespace_name, pod.workload_name, pod.workload_id);
  std::erase_if(spawn.env, [](const std::string& entry) {
    return entry.starts_with(std::string(kHeartbeatEnv) + "=");
  });
  spawn.env.push_back(std::string(kHeartbeatEnv) + "=" + heartbeat_path(spawn.working_dir));
  {
    std::lock_guard lock(launch_mu_);
    work_dirs_[pod.workload_id] = spawn.working_dir;
  }
  if (as_team_users_) spawn.credentials = ProcessCredentials{account.uid, account.gid};
  ALLOT_ASSIGN_OR_RETURN(spawn.output_fd,
                         layout_.open_log(pod.workload_id, pod.pod_index, account.gid));
  Result<PodCgroups> cgroups = make_cgroups(pod);
  if (!cgroups.ok()) {
    ::close(spawn.output_fd);
    return cgroups.status();
  }
  spawn.cgroup_procs_fds = cgroups->procs_fds;
  spawn.new_audit_session = ::geteuid() == 0;
  Result<SpawnedProcess> spawned = spawn_process(spawn);
  ::close(spawn.output_fd);
  for (const int fd : cgroups->procs_fds) ::close(fd);
  const std::string pid_file = layout_.pid_path(pod.workload_id, pod.pod_index);
  if (!spawned.ok()) {
    cgroups_->remove(cgroups->dirs);
    return spawned.status();
  }
  const PodTrace trace = trace_of(spawned->pid, cgroups->dirs);
  if (Status recorded = write_pod_pid_file(pid_file, trace); !recorded.ok()) {
    abandon(trace);
    signal_pod(trace, SIGKILL, true);
    ::unlink(pid_file.c_str());
    cgroups_->remove(trace.cgroups);
    return recorded;
  }
  const PodKey key{pod.workload_id, pod.pod_index};
  SupervisedPod supervised{key, spawned->pid, nullptr, nullptr};
  supervised.cleanup = [this, pid_file, trace, key] {
    signal_pod(trace, SIGKILL, true);  // what escaped the process group
    ::unlink(pid_file.c_str());
    cgroups_->remove(trace.cgroups);
    release_gpus(key);
  };
  hold_gpus(pod);
  supervised.signal = [trace](int sig) { signal_pod(trace, sig, false); };
  supervisor_.add(std::move(supervised));
  return {};
}

Result<PodCgroups> LocalExecutor::make_cgroups(const PodLaunch& pod) {
  if (!cgroups_->available()) return PodCgroups{};
  PodCgroupLimits limits;
  limits.resources = pod.resources;
  if (cgroups_->limits_pids()) limits.max_pids = options_.max_pids_per_pod;
  if (cgroups_->applies_device_rules()) {
    limits.device_rules = gpu_deny_rules(gpu_minors_, pod_gpu_minors(pod.gpus, gpus_));
  }
  return cgroups_->create(cgroup_name(layout_.root(), pod), limits);
}

void LocalExecutor::stop(WorkloadId workload, Duration grace) {
  supervisor_.stop(workload.value(), grace);
}

Result<std::string> LocalExecutor::read_log(PodId pod, int64_t offset, int64_t max_bytes) {
  const uint64_t workload_id = pod.workload.value();
  const int32_t pod_index = pod.index;
  if (offset < 0 || max_bytes < 0) return invalid_argument("negative log offset or length");
  const std::string path = layout_.log_path(workload_id, pod_index);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return not_found("no log for pod " + std::to_string(pod_index) + " of workload " +
                       std::to_string(workload_id));
    }
    return errno_status("open " + path, errno);
  }
  struct stat info {};
  std::string out;
  if (::fstat(fd, &info) == 0 && info.st_size > offset) {
    out.resize(static_cast<size_t>(std::min({max_bytes, kMaxLogRead, info.st_size - offset})));
    size_t got = 0;
    while (got < out.size()) {
      const ssize_t n = ::pread(fd, out.data() + got, out.size() - got,
                                static_cast<off_t>(offset) + static_cast<off_t>(got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    out.resize(got);
  }
  ::close(fd);
  return out;
}

// Relative to the data folder: people see where it is, clients learn no
// absolute path of the server.
std::string LocalExecutor::log_location(PodId pod) const {
  return "logs/" + std::to_string(pod.workload.value()) + "/pod-" + std::to_string(pod.index) +
         ".log";
}

}  // namespace allot::local
