#include "backends/slurm/library_job.h"

#include <limits>

#include "backends/slurm/sbatch_flags.h"

namespace allot::slurm {
namespace {

Result<uint32_t> count_of(const SbatchFlag& flag) {
  ALLOT_ASSIGN_OR_RETURN(const int64_t number, sbatch_flag_number("--" + flag.name, flag.value));
  if (number < 0 || number > std::numeric_limits<uint32_t>::max()) {
    return invalid_argument("sbatch option --" + flag.name + " is out of range: " + flag.value);
  }
  return static_cast<uint32_t>(number);
}

// The flags whose value is the field's text as it is.
std::string* text_field(LibraryJob& job, const std::string& name) {
  if (name == "job-name") return &job.name;
  if (name == "account") return &job.account;
  if (name == "partition") return &job.partition;
  if (name == "qos") return &job.qos;
  if (name == "nodelist") return &job.required_nodes;
  if (name == "dependency") return &job.dependency;
  if (name == "output") return &job.output;
  if (name == "chdir") return &job.work_dir;
  return nullptr;
}

// The flags whose value is a count.
std::optional<uint32_t>* count_field(LibraryJob& job, const std::string& name) {
  if (name == "nodes") return &job.nodes;
  if (name == "ntasks") return &job.tasks;
  if (name == "ntasks-per-node") return &job.tasks_per_node;
  if (name == "cpus-per-task") return &job.cpus_per_task;
  if (name == "time") return &job.time_minutes;
  if (name == "uid") return &job.uid;
  if (name == "gid") return &job.gid;
  return nullptr;
}

Status apply_flag(const SbatchFlag& flag, LibraryJob& job) {
  if (std::string* text = text_field(job, flag.name)) {
    *text = flag.value;
  } else if (std::optional<uint32_t>* count = count_field(job, flag.name)) {
    ALLOT_ASSIGN_OR_RETURN(*count, count_of(flag));
    // libslurm holds these two in 16 bits.
    const bool narrow = flag.name == "ntasks-per-node" || flag.name == "cpus-per-task";
    if (narrow && **count > std::numeric_limits<uint16_t>::max()) {
      return invalid_argument("sbatch option --" + flag.name + " is out of range: " + flag.value);
    }
  } else if (flag.name == "mem") {
    ALLOT_ASSIGN_OR_RETURN(const uint32_t mib, count_of(flag));
    job.memory_mib_per_node = mib;
  } else if (flag.name == "gres") {
    job.tres_per_node = "gres:" + flag.value;
  } else if (flag.name == "open-mode" && flag.value == "append") {
    job.append = true;
  } else if (flag.name == "no-requeue") {
    job.requeue = false;
  } else if (flag.name != "parsable" && !(flag.name == "export" && flag.value == "ALL")) {
    return invalid_argument("sbatch option --" + flag.name +
                            (flag.value.empty() ? "" : "=" + flag.value) +
                            " has no libslurm job field here");
  }
  return Status::ok_status();
}

// What sbatch adds to the environment from the job's options (sbatch's
// set_envs() and _opt_verify(): the job's name and dependency, and what srun
// inside the job reads).
void add_option_environment(const LibraryJob& job, std::map<std::string, std::string>& env) {
  if (job.tasks) {
    env["SLURM_NTASKS"] = std::to_string(*job.tasks);
    env["SLURM_NPROCS"] = std::to_string(*job.tasks);
  }
  if (job.tasks_per_node) env["SLURM_NTASKS_PER_NODE"] = std::to_string(*job.tasks_per_node);
  if (job.cpus_per_task) env["SLURM_CPUS_PER_TASK"] = std::to_string(*job.cpus_per_task);
  if (job.append) env["SLURM_OPEN_MODE"] = "a";  // srun's steps append to their files too
  if (!job.name.empty()) env["SLURM_JOB_NAME"] = job.name;
  if (!job.dependency.empty()) env["SLURM_JOB_DEPENDENCY"] = job.dependency;
}

}  // namespace

Result<LibraryJob> library_job_of(const Submission& submission,
                                  const std::map<std::string, std::string>& base) {
  if (submission.tool != "sbatch") {
    return invalid_argument("a " + submission.tool +
                            " submission cannot go through libslurm (only sbatch's)");
  }
  LibraryJob job;
  for (const SbatchFlag& flag : sbatch_flags(submission.argv)) {
    ALLOT_RETURN_IF_ERROR(apply_flag(flag, job));
  }
  job.script_path = script_path_of(submission.argv);
  job.script = submission.script;
  std::map<std::string, std::string> env = base;
  add_option_environment(job, env);
  job.environment.reserve(env.size());
  for (const auto& [name, value] : env) {
    std::string entry = name;
    entry += '=';
    entry += value;
    job.environment.push_back(std::move(entry));
  }
  return job;
}

}  // namespace allot::slurm
