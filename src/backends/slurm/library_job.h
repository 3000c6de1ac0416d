// A Slurm batch job as libslurm's job description wants it (issue 13, item
// 3): the fields of `slurm_submit_batch_job()`'s job_desc_msg_t that the
// executor's sbatch argv (slurm_jobs.h's submission_of()) sets, read from
// that argv, so that a job submitted through the library is the job sbatch
// would have submitted. Pure: no I/O; library_transport.h copies it into
// libslurm's struct.
//
// Contract:
// - library_job_of() maps every flag submission_of() writes: --job-name,
//   --account, --partition, --qos, --nodes (min = max), --ntasks,
//   --ntasks-per-node, --cpus-per-task, --mem (MiB per node), --time
//   (minutes; 0 = no limit), --nodelist (required nodes), --gres (as
//   tres_per_node, "gres:" before it, as sbatch 22.05 sends it),
//   --dependency, --output, --open-mode=append, --no-requeue, --chdir,
//   --uid/--gid (the owner, sbatch run as root), --export=ALL and
//   --parsable (nothing to map). Any other flag, or another --open-mode or
//   --export value, is kInvalidArgument naming it: the library path never
//   drops part of a job silently; so is a count that is not a whole
//   number or does not fit (--ntasks-per-node and --cpus-per-task: 16 bits
//   in libslurm). A submission made for salloc is
//   kInvalidArgument (allocations go through the commands).
// - The job's environment is what sbatch --export=ALL sends: `base` (the
//   environment sbatch would run with, plus what sbatch adds of its own
//   process: SLURM_SUBMIT_DIR, SLURM_SUBMIT_HOST, SLURM_UMASK,
//   SLURM_PRIO_PROCESS, SLURM_RLIMIT_*: the transport reads those), then
//   what sbatch sets from the job's options (SLURM_JOB_NAME,
//   SLURM_JOB_DEPENDENCY, SLURM_NTASKS and SLURM_NPROCS,
//   SLURM_NTASKS_PER_NODE, SLURM_CPUS_PER_TASK, SLURM_OPEN_MODE: srun
//   inside the job lays out a gang's tasks and opens its files with them), as "NAME=value" sorted
//   by name.
// - argv of the job is the script's path alone (Slurm's "Command"), the
//   script's text goes as the job's script.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/slurm/slurm_jobs.h"
#include "base/result.h"

namespace allot::slurm {

struct LibraryJob {
  std::string name;
  std::string account;
  std::string partition;       // empty: Slurm's default
  std::string qos;             // empty: the association's default
  std::string required_nodes;  // --nodelist; empty: anywhere
  std::string tres_per_node;   // "gres:gpu:h100:2"; empty: no GPUs
  std::string dependency;      // "afterany:12:13"; empty: none
  std::string output;          // stdout and stderr
  std::string work_dir;
  std::string script_path;  // argv[0] of the job
  std::string script;       // the batch script's text
  std::optional<uint32_t> nodes;
  std::optional<uint32_t> tasks;
  std::optional<uint32_t> tasks_per_node;
  std::optional<uint32_t> cpus_per_task;
  std::optional<uint64_t> memory_mib_per_node;
  std::optional<uint32_t> time_minutes;  // 0: no limit
  std::optional<uint32_t> uid;
  std::optional<uint32_t> gid;
  bool append = false;
  bool requeue = true;
  std::vector<std::string> environment;  // "NAME=value", sorted by name

  friend bool operator==(const LibraryJob&, const LibraryJob&) = default;
};

Result<LibraryJob> library_job_of(const Submission& submission,
                                  const std::map<std::string, std::string>& base);

}  // namespace allot::slurm
