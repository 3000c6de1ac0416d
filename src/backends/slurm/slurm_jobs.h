// Slurm jobs as the Slurm executor speaks them (issue 13, item 3): how an
// admitted workload becomes one `sbatch` job, and what `squeue` and `sacct`
// say about allot's jobs. Pure: no I/O.
//
// Contract:
// - job_name_of(prefix, id) is `<prefix><id>` ("allot-42"); the job name is
//   how allot finds its jobs again after a restart (adoption), so it is the
//   same for every run of a workload. workload_of_job_name() inverts it
//   (nullopt for any other name).
// - submission_of() turns a placed launch into sbatch's argv and the batch
//   script: one job per workload; a gang is one job with --nodes (the
//   distinct nodes allot placed it on, in --nodelist) and --ntasks (its
//   pods, one task each, run by srun); --gres=gpu[:<flavor>]:N per node;
//   --account = the team; --qos = the priority class; --time =
//   maxRuntime plus a minute (allot stops it first; 0 = no limit);
//   --mem per node (the pods' memory, MiB rounded up; 100 MiB when a pod asks
//   none, so that jobs share nodes); --cpus-per-task. Pods of a gang must ask
//   the same on every node (Slurm's per-node requests); otherwise
//   kInvalidArgument saying why. `--no-requeue`: Slurm never requeues a job
//   by itself (a failed node ends it NODE_FAIL; allot requeues the workload
//   and places it again). Logs go to `<log_dir>/<id>-<pod>.log`,
//   appended to across runs.
// - With an owner (the team's or the submitting user's Unix account, as the
//   local backend runs pods), the job runs as that account: `--uid --gid`
//   (sbatch run as root) and `--export=NONE` (allotd's environment never
//   reaches the job); the script sets PATH, HOME, USER and LOGNAME itself
//   (the launch's env wins) and lets srun pass the script's environment to
//   a gang's tasks. Without one the job runs as whoever runs sbatch.
// - With `after` (Slurm job ids; a handover, executor.h's hand_over()), the
//   job waits for them to end, whatever their end: `--dependency=afterany:
//   <id>:<id>...`, on the nodes of its placement as any other.
// - SubmitMode::kAllocation (opt-in, `--slurm-submit allocation`): the same
//   job asked as an allocation, which slurmctld starts inside the request
//   when its nodes are free, where a batch job waits for the next scheduling
//   pass (Slurm 22.05: job_allocate() only tests a batch job at submit;
//   docs/slurm.md, *Started at submit*). argv is `sh -c <launcher> ...`:
//   the launcher starts `salloc <the job's options> srun <step options>
//   /bin/sh <script>` in a session of its own (it outlives allotd, as a batch
//   job would), its stderr in `<log_dir>/<id>-salloc.log`, and prints the job
//   id once salloc says "Granted job allocation N" (or "Pending job
//   allocation N" when Slurm queues it), reading that file every 10 ms,
//   followed by salloc's pid and start time ("N PID START",
//   salloc_process.h: allotd ends a salloc that outlives its job); salloc's
//   own failure is its exit 1 with salloc's words. With an owner, salloc
//   runs as the owner (`setpriv --reuid --regid --clear-groups salloc`,
//   which execs salloc in the same process; the request is the owner's own),
//   not as root with --uid/--gid: salloc --uid drops to the owner while it
//   waits, and the grant of an allocation Slurm queued, which munge encodes
//   for root, then no longer decodes ("Unauthorized credential"; slurmctld
//   kills the job: found in the lend-borrow bench). srun runs
//   the script as one task per pod (`--output=<log_dir>/<id>-%t.log`,
//   `--kill-on-bad-exit=1`); the job's exit status is the step's. The script
//   execs the command in every task (a gang's too: no srun inside).
// - No value of the workload's env, and no script text, is ever in an argv
//   (any local user reads argv in /proc/PID/cmdline). For sbatch a batch
//   script is a file that the caller writes readable by root alone and
//   removes once submitted (sbatch sends its text through slurmctld);
//   libslurm and slurmrestd send the text itself, no file. An allocation's
//   script travels in the environment (Submission::env, kScriptCarrier:
//   launcher, salloc, srun, the task), readable only by the process's owner
//   and root; the task runs `/bin/sh -c 'eval "$ALLOT_JOB_SCRIPT"'` and the
//   script unsets the variable before anything else. Not
//   expressible: --no-requeue (Slurm never requeues an allocation anyway),
//   --export=NONE (the launcher's environment is the runner's: PATH and
//   SLURM_CONF; the script sets the rest).
// - parse_squeue() reads `squeue -h -a -t all -O <kSqueueFormat>` lines;
//   parse_sacct() reads `sacct -n -P -X -o JobIDRaw,State,ExitCode` lines.
//   A malformed line is kInvalidArgument naming it.
// - exit_of() turns a final job into the pods' exit: the raw wait status of
//   squeue's exit_code (or sacct's "code:signal"); NODE_FAIL, BOOT_FAIL and
//   a job Slurm lost are ended by signal 9 with `lost` set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/executor.h"
#include "base/result.h"

namespace allot::slurm {

inline constexpr std::string_view kSqueueFormat =
    "JobID:|,Name:|,State:|,Reason:|,NodeList:|,exit_code:";

std::string job_name_of(std::string_view prefix, WorkloadId workload);
std::optional<WorkloadId> workload_of_job_name(std::string_view prefix, std::string_view name);

// How a job is asked of Slurm (see the contract).
enum class SubmitMode { kBatch, kAllocation };

struct SubmitSettings {
  std::string job_prefix = "allot-";
  std::string partition;  // empty: Slurm's default partition
  std::string log_dir;    // where the pods' logs are written (must exist)
  // GPUs asked by type (`gpu:<flavor>:N`, Slurm's typed GRES) when the policy
  // has several flavors; untyped `gpu:N` when it has one (as the sync does).
  bool typed_gres = true;
  SubmitMode mode = SubmitMode::kBatch;
};

// The Unix account a job runs as.
struct JobOwner {
  std::string user;
  uint32_t uid = 0;
  uint32_t gid = 0;
  std::string home;  // HOME in the job

  friend bool operator==(const JobOwner&, const JobOwner&) = default;
};

// The environment variable that carries an allocation's script to its tasks.
inline constexpr std::string_view kScriptCarrier = "ALLOT_JOB_SCRIPT";

struct Submission {
  std::vector<std::string> argv;  // sbatch ... (the script comes on stdin-less path)
  std::string script;             // the batch script's text
  // "NAME=value" added to the environment argv runs with (the allocation's
  // script, which holds the workload's env): never in argv.
  std::vector<std::string> env;
  std::string tool = "sbatch";  // what submits it, for messages: sbatch or salloc
};

// `script_path` is where the caller writes `script` before running argv.
Result<Submission> submission_of(const WorkloadLaunch& launch, const SubmitSettings& settings,
                                 const std::string& script_path,
                                 const std::optional<JobOwner>& owner = std::nullopt,
                                 const std::vector<std::string>& after = {});
// The log files a job writes (`<log_dir>/<id>-<pod>.log`, and a gang's batch
// log): created before sbatch when the job runs as another account.
std::vector<std::string> job_log_paths(const WorkloadLaunch& launch, const std::string& log_dir);

std::string pod_log_path(const std::string& log_dir, PodId pod);
// Where SubmitMode::kAllocation's salloc writes its own messages.
std::string allocation_log_path(const std::string& log_dir, WorkloadId workload);

struct SlurmJob {
  std::string id;
  std::string name;
  std::string state;   // RUNNING, PENDING, COMPLETED, ...
  std::string reason;  // Slurm's reason code ("None", "Resources", ...)
  std::string nodes;   // node list, compressed ("node[1-2]")
  int64_t wait_status = 0;

  friend bool operator==(const SlurmJob&, const SlurmJob&) = default;
};

Result<std::vector<SlurmJob>> parse_squeue(std::string_view text);
Result<std::vector<SlurmJob>> parse_sacct(std::string_view text);

// A job as `sacct -n -P -X -o JobIDRaw,Submit` says it with
// SLURM_TIME_FORMAT=%s (its submission in epoch seconds): how the executor
// finds the job of a run whose id was never recorded (WorkloadLaunch's
// resume_since). parse_sacct_submitted() reads those lines; a malformed one
// is kInvalidArgument naming it.
struct SubmittedJob {
  std::string id;
  int64_t submitted_s = 0;

  friend bool operator==(const SubmittedJob&, const SubmittedJob&) = default;
};
Result<std::vector<SubmittedJob>> parse_sacct_submitted(std::string_view text);

bool is_final_job_state(std::string_view state);
bool is_started_job_state(std::string_view state);
// Slurm's KillWait (time between SIGTERM and SIGKILL of a cancelled job)
// from `scontrol show config` ("KillWait = 30 sec"); nullopt when absent.
std::optional<Duration> kill_wait_of(std::string_view config);

// PENDING again, or one of Slurm's REQUEUE states.
bool is_requeued_job_state(std::string_view state);  // RUNNING, COMPLETING, or final after running

struct JobExit {
  int exit_code = 0;
  int signal = 0;
  bool lost = false;  // Slurm lost it (node failure): not the program's doing
};
JobExit exit_of(const SlurmJob& job);

}  // namespace allot::slurm
