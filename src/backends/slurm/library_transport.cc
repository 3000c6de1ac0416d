#include "backends/slurm/library_transport.h"

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <mutex>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

// Exported by libslurm (its squeue and scontrol print states and reasons
// with them) but not declared in 22.05's slurm.h; pyslurm declares them
// the same way.
extern "C" char* slurm_job_state_string(uint32_t inx);
extern "C" char* slurm_job_reason_string(enum job_state_reason inx);

namespace allot::slurm {
namespace {

// The ones sbatch 22.05 propagates (Slurm's get_slurm_rlimits_info()).
struct LimitName {
  int resource;
  const char* name;
};
constexpr std::array<LimitName, 10> kLimits = {{{RLIMIT_CPU, "CPU"},
                                                {RLIMIT_FSIZE, "FSIZE"},
                                                {RLIMIT_DATA, "DATA"},
                                                {RLIMIT_STACK, "STACK"},
                                                {RLIMIT_CORE, "CORE"},
                                                {RLIMIT_RSS, "RSS"},
                                                {RLIMIT_NPROC, "NPROC"},
                                                {RLIMIT_NOFILE, "NOFILE"},
                                                {RLIMIT_MEMLOCK, "MEMLOCK"},
                                                {RLIMIT_AS, "AS"}}};

// Slurm's last error: its number and its words.
struct SlurmError {
  int code = 0;
  std::string words;
};

SlurmError last_error() {
  const int code = slurm_get_errno();
  return {code, std::string(slurm_strerror(code)) + " (Slurm error " + std::to_string(code) + ")"};
}

// libslurm's job_desc_msg_t names texts as char*; it only reads them.
char* text(const std::string& value) {
  return value.empty() ? nullptr : const_cast<char*>(value.c_str());
}

std::string job_id_of(const slurm_job_info_t& job) {
  if (job.array_task_id != NO_VAL) {
    return std::to_string(job.array_job_id) + "_" + std::to_string(job.array_task_id);
  }
  return std::to_string(job.job_id);
}

SlurmJob job_of(const slurm_job_info_t& job) {
  SlurmJob out;
  out.id = job_id_of(job);
  out.name = job.name ? job.name : "";
  out.state = slurm_job_state_string(job.job_state);
  out.reason = job.state_desc
                   ? job.state_desc
                   : slurm_job_reason_string(static_cast<job_state_reason>(job.state_reason));
  out.nodes = job.nodes ? job.nodes : "";
  out.wait_status = job.exit_code;
  return out;
}

void describe(const LibraryJob& job, job_desc_msg_t& desc) {
  desc.name = text(job.name);
  desc.account = text(job.account);
  desc.partition = text(job.partition);
  desc.qos = text(job.qos);
  desc.req_nodes = text(job.required_nodes);
  desc.tres_per_node = text(job.tres_per_node);
  desc.dependency = text(job.dependency);
  desc.std_out = text(job.output);
  desc.work_dir = text(job.work_dir);
  desc.script = text(job.script);
  if (job.nodes) desc.min_nodes = desc.max_nodes = *job.nodes;
  if (job.tasks) desc.num_tasks = *job.tasks;
  if (job.tasks_per_node) desc.ntasks_per_node = static_cast<uint16_t>(*job.tasks_per_node);
  if (job.cpus_per_task) desc.cpus_per_task = static_cast<uint16_t>(*job.cpus_per_task);
  if (job.memory_mib_per_node) desc.pn_min_memory = *job.memory_mib_per_node;
  if (job.time_minutes) desc.time_limit = *job.time_minutes == 0 ? INFINITE : *job.time_minutes;
  desc.user_id = job.uid ? *job.uid : getuid();
  desc.group_id = job.gid ? *job.gid : getgid();
  if (job.append) desc.open_mode = OPEN_MODE_APPEND;
  if (!job.requeue) desc.requeue = 0;
}

}  // namespace

bool slurm_error_is_refusal(int code) {
  if (code == ESLURM_ERROR_ON_DESC_TO_RECORD_COPY || code == ESLURM_NODES_BUSY) return false;
  return (code >= 2000 && code < 3000) || (code >= 8000 && code < 9000);
}

std::map<std::string, std::string> sbatch_process_environment() {
  std::map<std::string, std::string> env;
  std::array<char, PATH_MAX> dir{};
  if (getcwd(dir.data(), dir.size()) != nullptr) env["SLURM_SUBMIT_DIR"] = dir.data();
  std::array<char, HOST_NAME_MAX + 1> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) env["SLURM_SUBMIT_HOST"] = host.data();
  const mode_t mask = umask(0);
  umask(mask);
  env["SLURM_UMASK"] = "0" + std::to_string((mask >> 6) & 7) + std::to_string((mask >> 3) & 7) +
                       std::to_string(mask & 7);
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, 0);
  if (errno == 0) env["SLURM_PRIO_PROCESS"] = std::to_string(nice);
  for (const LimitName& limit : kLimits) {
    rlimit value{};
    if (getrlimit(static_cast<__rlimit_resource>(limit.resource), &value) != 0) continue;
    env[std::string("SLURM_RLIMIT_") + limit.name] =
        std::to_string(static_cast<unsigned long>(value.rlim_cur));
  }
  return env;
}

Result<std::unique_ptr<LibraryTransport>> LibraryTransport::make(LibrarySettings settings) {
  // libslurm keeps its configuration for the whole process: it is read once.
  static std::once_flag initialised;
  std::call_once(initialised, [&settings] {
    slurm_init(settings.conf.empty() ? nullptr : settings.conf.c_str());
  });
  std::map<std::string, std::string> base = sbatch_process_environment();
  for (const std::string& entry : settings.environment) {
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) base[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  std::unique_ptr<LibraryTransport> transport(new LibraryTransport(std::move(base)));
  ALLOT_RETURN_IF_ERROR(transport->list_jobs().status());
  return transport;
}

Result<std::string> LibraryTransport::submit(const Submission& submission,
                                             const std::optional<JobOwner>& /*owner*/) {
  ALLOT_ASSIGN_OR_RETURN(const LibraryJob job, library_job_of(submission, base_));
  job_desc_msg_t desc;
  slurm_init_job_desc_msg(&desc);
  describe(job, desc);
  std::vector<char*> environment;
  environment.reserve(job.environment.size() + 1);
  for (const std::string& entry : job.environment) environment.push_back(text(entry));
  environment.push_back(nullptr);
  desc.environment = environment.data();
  desc.env_size = static_cast<uint32_t>(job.environment.size());
  std::array<char*, 2> argv = {text(job.script_path), nullptr};
  if (argv[0] != nullptr) {
    desc.argv = argv.data();
    desc.argc = 1;
  }
  submit_response_msg_t* response = nullptr;
  if (slurm_submit_batch_job(&desc, &response) != SLURM_SUCCESS || response == nullptr) {
    const SlurmError error = last_error();
    if (response != nullptr) slurm_free_submit_response_response_msg(response);
    return Status(slurm_error_is_refusal(error.code) ? ErrorCode::kFailedPrecondition
                                                     : ErrorCode::kUnavailable,
                  "libslurm: slurmctld did not take the job: " + error.words);
  }
  const std::string id = std::to_string(response->job_id);
  slurm_free_submit_response_response_msg(response);
  return id;
}

Status LibraryTransport::cancel(const std::string& job_id, CancelKind kind) {
  const uint16_t signal = kind == CancelKind::kTerm ? SIGTERM : SIGKILL;
  const uint16_t flags = kind == CancelKind::kCancel ? 0 : KILL_FULL_JOB;
  if (slurm_kill_job2(job_id.c_str(), signal, flags, nullptr) == SLURM_SUCCESS) {
    return Status::ok_status();
  }
  const SlurmError error = last_error();
  if (signal == SIGKILL &&
      (error.code == ESLURM_ALREADY_DONE || error.code == ESLURM_INVALID_JOB_ID)) {
    return Status::ok_status();  // as scancel: an ended job is cancelled already
  }
  return Status(ErrorCode::kUnavailable,
                "libslurm: slurmctld did not signal job " + job_id + ": " + error.words);
}

Result<std::vector<SlurmJob>> LibraryTransport::list_jobs() {
  time_t since = 0;
  {
    MutexLock lock(mu_);
    since = listed_at_;
  }
  job_info_msg_t* info = nullptr;
  if (slurm_load_jobs(since, &info, SHOW_ALL) != SLURM_SUCCESS) {
    const SlurmError error = last_error();
    if (error.code == SLURM_NO_CHANGE_IN_DATA && since != 0) {
      MutexLock lock(mu_);
      return listed_;
    }
    return Status(ErrorCode::kUnavailable, "libslurm: cannot list Slurm's jobs: " + error.words);
  }
  std::vector<SlurmJob> jobs;
  jobs.reserve(info->record_count);
  for (uint32_t i = 0; i < info->record_count; ++i) jobs.push_back(job_of(info->job_array[i]));
  const time_t updated = info->last_update;
  slurm_free_job_info_msg(info);
  MutexLock lock(mu_);
  listed_ = jobs;
  listed_at_ = updated;
  return jobs;
}

}  // namespace allot::slurm
