// LocalExecutor: the local execution backend (DESIGN.md section 5). Each pod
// is a real process on this machine, run as its team's Unix identity, with
// CUDA_VISIBLE_DEVICES set to its GPUs, its own working folder and log, and
// cgroups (v2, or v1) where the machine allows; docs/isolation.md says what
// holds where.
//
// Contract (beyond executor.h's):
// - launch() validates the pod (pod_command.h), makes sure the team's account
//   exists (team_identity.h, when running as team users), prepares its folders
//   (data_layout.h), opens its log, creates its cgroups (pod_cgroup_pool.h), forks
//   and execs it (process_spawn.h), records its pid file (pod_pid_file.h) and
//   hands it to the supervisor (pod_supervisor.h), which reports its exit. A
//   command that cannot be executed is a pod that exits with code 127, with
//   an "allot: cannot execute ..." line in its log. A pod already running
//   under the same (workload, pod index) is refused with kAlreadyExists.
// - Team users: when run_as_team_users is set and the process is root, pods
//   run as the team's recorded account (team_identity.h), or, when the pod
//   names its submitting user, as that user's recorded account in the team
//   (user_identity.h: primary group the team's, home
//   DATA/teams/<team>/homes/<account>, 0700); otherwise (one warning to the
//   logger) as the current user, with DATA/homes/<user> as their home. Every
//   pod gets ALLOT_USER when its user is known (pod_command.h).
// - cgroups (pod_cgroup_pool.h): cgroup v2 under cgroup_root where its parent
//   offers it (cpu.max, memory.max, pids.max), else cgroup v1 hierarchies
//   beside it (freezer, pids.max, device rules; no cpu or memory limits: one
//   warning). Without either (or use_cgroups unset), one warning, and pods run
//   without limits.
// - Every process a pod starts stops with it (pod_trace.h): stop() signals
//   them all, and when the pod's main process ends, whatever else of it is
//   left is killed. Through the cgroup where there is one (freezer or
//   cgroup.kill), else through /proc (the pod's Unix session, its audit
//   session, its descendants). A pod has at most max_pids_per_pod processes
//   and threads where a pids controller is offered.
// - GPUs: a pod's GPU index becomes the UUID of the discovered GPU with that
//   index (options.gpus, or NVML when unset); other indices are passed as is.
//   Where the cgroup v1 devices controller is used, a pod cannot open the
//   machine's other /dev/nvidia<N> (gpu_device_rules.h); elsewhere (cgroup v2
//   needs eBPF, not done; no cgroups) one warning: CUDA_VISIBLE_DEVICES only.
// - Activity (docs/spaces.md): every pod gets ALLOT_HEARTBEAT_FILE, a file in
//   its workload's working folder that its tools may touch; activity() reads
//   its mtime and the CPU time of the pods' processes (pod_activity.h). The
//   working folder is never removed: a suspended Space finds it again.
// - GPU utilisation (gpu_sampler.h): with gpu_sample_interval > 0, NVML is
//   read on a thread of its own every interval (times from options.clock);
//   gpu_usage() attributes the latest reading of the machine's GPU i to the
//   running pods that hold index i (every node of the local backend is this
//   machine), and a GPU no pod holds to node_name without a team.
// - /proc: at construction, when /proc does not hide other users' processes
//   (proc_hidepid.h), one warning naming the host setting; with
//   remount_proc_hidepid, /proc is remounted with hidepid=invisible instead.
// - At construction (kill_stale_pods_at_start), the pods recorded in pid
//   files by a previous allotd are killed, escaped processes included. The destructor SIGKILLs
//   every pod still running and waits for them; those exits are not reported.
// Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/executor.h"
#include "backends/local/data_layout.h"
#include "backends/local/gpu_discovery.h"
#include "backends/local/gpu_sampler.h"
#include "backends/local/pod_cgroup_pool.h"
#include "backends/local/pod_pid_file.h"
#include "backends/local/pod_process.h"
#include "backends/local/pod_supervisor.h"
#include "backends/local/team_identity.h"
#include "backends/local/user_identity.h"
#include "base/clock.h"
#include "base/logger.h"

namespace allot::local {

struct LocalExecutorOptions {
  std::string data_dir;           // REQUIRES: non-empty; created when missing
  PodEventSink* sink = nullptr;   // REQUIRES: non-null, outlives the executor
  bool run_as_team_users = true;  // needs root; otherwise pods run as the current user
  bool use_cgroups = true;
  std::string cgroup_root = "/sys/fs/cgroup/allot";
  // pids.max of each pod (processes and threads) where a pids controller is
  // offered; 0: no limit. A fork bomb stays inside its pod.
  int64_t max_pids_per_pod = 16384;
  // The machine's GPUs for the index -> UUID mapping. Unset: discovered with
  // NVML (nvml_library) at construction. Empty: pods get the declared indices.
  std::optional<std::vector<GpuDevice>> gpus;
  // The mount table read for the hidepid check.
  std::string proc_mountinfo = "/proc/self/mountinfo";
  // Remount /proc with hidepid=invisible when it shows every process to
  // every user. Changes the host's /proc for everyone: opt-in.
  bool remount_proc_hidepid = false;
  // Where the GPU device files (/dev/nvidia<N>) are.
  std::string dev_dir = "/dev";
  // Kill the pods a previous allotd left behind (kill_stale_pods) at construction.
  bool kill_stale_pods_at_start = true;
  // Where notices go (no root, no cgroups, stale pods); null: nowhere.
  Logger* logger = nullptr;
  // GPU utilisation sampling (gpu_sampler.h): the NVML library (also that of
  // the discovery), how often
  // (0: never; tests call gpu_sampler()->sample_now()), the clock the
  // readings are stamped with (null: the system clock), and the node name
  // of GPUs no pod holds (empty: this machine's host name).
  std::string nvml_library = kNvmlLibrary;
  Duration gpu_sample_interval = Duration::seconds(10);
  const Clock* clock = nullptr;
  std::string node_name;
};

class LocalExecutor : public Executor {
 public:
  explicit LocalExecutor(LocalExecutorOptions options);
  ~LocalExecutor() override;
  LocalExecutor(const LocalExecutor&) = delete;
  LocalExecutor& operator=(const LocalExecutor&) = delete;

  // Executor: launches the pods one by one (launch_pod()); each pod that
  // started is reported kRunning, each that could not kExited (127) with why.
  void launch(const WorkloadLaunch& launch) override;
  void stop(WorkloadId workload, Duration grace) override;
  Result<std::string> read_log(PodId pod, int64_t offset, int64_t max_bytes) override;
  [[nodiscard]] std::string log_location(PodId pod) const override;
  // DATA/teams/<team>/checkpoints/<namespace>/<name>-<id> (data_layout.h);
  // a launch naming any other folder is refused.
  [[nodiscard]] std::string checkpoint_dir(const CheckpointOwner& owner) const override;
  // The newest file's modification time (checkpoint_scan.h); nullopt for a
  // folder that is not a checkpoint folder of this data directory.
  [[nodiscard]] std::optional<Timestamp> last_checkpoint(
      const std::string& checkpoint_dir) const override;
  // The CPU time of the workload's running pods and its heartbeat file's
  // mtime (pod_activity.h); nullopt when none of its pods runs.
  [[nodiscard]] std::optional<ActivitySample> activity(WorkloadId workload) override;
  // The latest GPU reading, attributed to the pods holding the GPUs.
  [[nodiscard]] std::vector<GpuUsageSample> gpu_usage() override;

  // Starts one pod; its exit is reported through the sink. An error when it
  // cannot start (nothing is reported then): a pod that fails validation
  // (kInvalidArgument), one already running (kAlreadyExists), a failed fork.
  Status launch_pod(const PodLaunch& pod);

  // SIGKILLs the process groups recorded under DATA/run by an allotd that did
  // not shut down cleanly, and removes the files (pod_pid_file.h).
  static std::vector<StalePod> kill_stale_pods(const std::string& data_dir);

  [[nodiscard]] bool runs_as_team_users() const { return as_team_users_; }
  [[nodiscard]] bool cgroups_enabled() const { return cgroups_->available(); }
  // Why cgroups are not used ("" when they are).
  [[nodiscard]] const std::string& cgroups_reason() const { return cgroups_->reason(); }
  // "cgroup v2", "cgroup v1 (freezer, pids, devices)" or "none".
  [[nodiscard]] std::string cgroups_kind() const { return cgroups_->kind(); }
  // Whether each pod's processes and threads are limited (max_pids_per_pod).
  [[nodiscard]] bool limits_pids() const {
    return cgroups_->limits_pids() && options_.max_pids_per_pod > 0;
  }
  [[nodiscard]] const std::vector<GpuDevice>& gpus() const { return gpus_; }
  // The minors of the machine's /dev/nvidia<N> (found there or by NVML).
  [[nodiscard]] const std::vector<int32_t>& gpu_minors() const { return gpu_minors_; }
  // Whether a pod can open only its own GPUs' device files.
  [[nodiscard]] bool restricts_gpu_devices() const { return cgroups_->applies_device_rules(); }
  // Whether /proc hides other users' processes (checked, or remounted, at construction).
  [[nodiscard]] bool proc_hides_other_users() const { return proc_hidden_; }
  [[nodiscard]] size_t running_pods() const { return supervisor_.running_count(); }
  [[nodiscard]] const DataLayout& layout() const { return layout_; }
  [[nodiscard]] GpuSampler& gpu_sampler() { return *gpu_sampler_; }

 private:
  // Who a pod runs as, and its home.
  struct PodIdentity {
    UnixAccount account;
    std::string home_dir;
    bool per_user = false;  // the submitting user's own account
  };

  Status start(const PodLaunch& pod);
  Result<PodIdentity> identity_for(const PodLaunch& pod);
  Status prepare_dirs(const PodLaunch& pod, const PodIdentity& identity) const;
  Result<PodCgroups> make_cgroups(const PodLaunch& pod);
  void announce();
  void check_proc();
  void announce_gpu_isolation();
  // Record the pod as holding its GPUs (gpu_holders_), until it ends.
  void hold_gpus(const PodLaunch& pod);
  void release_gpus(const PodKey& pod);

  LocalExecutorOptions options_;
  NullLogger null_logger_;
  Logger& logger_;
  bool as_team_users_ = false;
  DataLayout layout_;
  TeamIdentities identities_;
  UserIdentities user_identities_;
  UnixAccount self_;
  std::vector<GpuDevice> gpus_;
  std::vector<int32_t> gpu_minors_;
  bool proc_hidden_ = false;
  std::unique_ptr<PodCgroupPool> cgroups_;
  std::mutex launch_mu_;
  std::set<PodKey> launching_;  // guarded by launch_mu_
  // The working folder of each workload launched here, for its heartbeat
  // file; guarded by launch_mu_.
  std::map<uint64_t, std::string> work_dirs_;
  // The running pods holding each GPU index; guarded by launch_mu_.
  struct GpuHolder {
    PodKey pod;
    std::string team;
    std::string node;
    friend bool operator==(const GpuHolder&, const GpuHolder&) = default;
  };
  std::map<int32_t, std::vector<GpuHolder>> gpu_holders_;
  SystemClock system_clock_;
  std::string node_name_;
  std::unique_ptr<GpuSampler> gpu_sampler_;
  // Turns the supervisor's exits into the port's events for options_.sink.
  class ExitForwarder final : public PodExitSink {
   public:
    explicit ExitForwarder(PodEventSink* sink) : sink_(sink) {}
    void on_pod_exit(const PodExit& exit) override { sink_->on_pod_event(to_pod_event(exit)); }

   private:
    PodEventSink* sink_;
  };
  ExitForwarder exits_;
  // Last: destroyed first, while what its cleanups use (cgroups_) still exists.
  PodSupervisor supervisor_;
};

}  // namespace allot::local
