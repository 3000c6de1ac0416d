#include "backends/slurm/slurm_jobs.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace allot::slurm {
namespace {

constexpr int64_t kBytesPerMiB = int64_t{1} << 20;
constexpr int64_t kDefaultMemMiB = 100;

std::string trimmed_field(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return std::string(text);
}

std::vector<std::string> split_fields(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      out.push_back(trimmed_field(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

std::optional<int64_t> number(std::string_view text) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A POSIX shell word that stands for exactly `text`.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// Slurm's time limit: maxRuntime plus a minute, in minutes rounded up; 0
// (no limit) without one. allot stops the work at maxRuntime itself.
std::string time_limit(const std::optional<Duration>& max_runtime) {
  if (!max_runtime) return "0";
  const int64_t seconds = (max_runtime->ms() + 999) / 1000 + 60;
  return std::to_string((seconds + 59) / 60);
}

struct NodeShare {
  int32_t tasks = 0;
  ResourceVector resources;
};

// What each node gives the job, in the order of first placement; Slurm asks
// the same of every node of a job.
Result<std::vector<std::pair<std::string, NodeShare>>> shares_of(const WorkloadLaunch& launch) {
  std::vector<std::pair<std::string, NodeShare>> shares;
  for (const PlacedPod& pod : launch.pods) {
    auto it = std::find_if(shares.begin(), shares.end(),
                           [&](const auto& share) { return share.first == pod.node.str(); });
    if (it == shares.end()) it = shares.insert(shares.end(), {pod.node.str(), NodeShare{}});
    it->second.tasks += 1;
    it->second.resources += pod.resources;
  }
  if (shares.empty()) return invalid_argument("a workload without pods cannot be a Slurm job");
  for (const auto& [node, share] : shares) {
    const NodeShare& first = shares.front().second;
    if (share.tasks != first.tasks || share.resources != first.resources) {
      return invalid_argument("Slurm asks the same of every node of a job, but node " + node +
                              " has " + std::to_string(share.tasks) + " pod(s) with " +
                              share.resources.to_string() + " and node " + shares.front().first +
                              " " + std::to_string(first.tasks) + " with " +
                              first.resources.to_string());
    }
  }
  return shares;
}

std::string join(const std::vector<std::pair<std::string, NodeShare>>& shares) {
  std::string out;
  for (const auto& share : shares) out += (out.empty() ? "" : ",") + share.first;
  return out;
}

std::string command_line(const std::vector<std::string>& command) {
  std::string out;
  for (const std::string& word : command) out += " " + shell_quoted(word);
  return out;
}

std::string batch_log_path(const WorkloadLaunch& launch, const std::string& log_dir) {
  return log_dir + "/" + std::to_string(launch.workload.value()) + "-batch.log";
}

// The job's script. `carrier`: the environment variable that carries the
// script to the job in SubmitMode::kAllocation, unset before anything runs
// (empty for a batch script).
std::string script_of(const WorkloadLaunch& launch, const std::string& log_dir, bool gang,
                      const std::optional<JobOwner>& owner, std::string_view carrier = {}) {
  std::string script = "#!/bin/sh\n# allot workload " + launch.namespace_name + "/" + launch.name +
                       " (id " + std::to_string(launch.workload.value()) + ")\n";
  if (!carrier.empty()) script += "unset " + std::string(carrier) + "\n";
  std::map<std::string, std::string> env = launch.env;
  env.emplace("ALLOT_WORKLOAD", launch.namespace_name + "/" + launch.name);
  env.emplace("ALLOT_TEAM", launch.team.str());
  if (!launch.user.empty()) env.emplace("ALLOT_USER", launch.user);
  if (owner) {  // sbatch's environment is the runner's: the job's basic one is the script's
    env.emplace("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    env.emplace("HOME", owner->home);
    env.emplace("USER", owner->user);
    env.emplace("LOGNAME", owner->user);
    env["SLURM_EXPORT_ENV"] = "ALL";  // srun passes this environment to the tasks
  }
  for (const auto& [name, value] : env)
    script += "export " + name + "=" + shell_quoted(value) + "\n";
  if (!gang) return script + "exec" + command_line(launch.command) + "\n";
  const std::string logs = log_dir + "/" + std::to_string(launch.workload.value()) + "-%t.log";
  return script +
         "exec srun --kill-on-bad-exit=1 --open-mode=append --output=" + shell_quoted(logs) +
         command_line(launch.command) + "\n";
}

// What sbatch and salloc both say of the job: its name, account, shape,
// placement, limits and owner.
std::vector<std::string> job_options(const WorkloadLaunch& launch, const SubmitSettings& settings,
                                     const std::vector<std::pair<std::string, NodeShare>>& shares,
                                     const std::optional<JobOwner>& owner,
                                     const std::vector<std::string>& after) {
  const NodeShare& share = shares.front().second;
  const int64_t gpus = share.resources.gpu();
  const int64_t cpus = (share.resources.cpu_millis() / share.tasks + 999) / 1000;
  int64_t mem_mib = (share.resources.memory_bytes() + kBytesPerMiB - 1) / kBytesPerMiB;
  if (mem_mib == 0) mem_mib = kDefaultMemMiB * share.tasks;
  std::vector<std::string> out = {"--job-name=" + job_name_of(settings.job_prefix, launch.workload),
                                  "--account=" + launch.team.str(),
                                  "--nodes=" + std::to_string(shares.size()),
                                  "--ntasks=" + std::to_string(launch.pods.size()),
                                  "--ntasks-per-node=" + std::to_string(share.tasks),
                                  "--nodelist=" + join(shares),
                                  "--mem=" + std::to_string(mem_mib),
                                  "--time=" + time_limit(launch.max_runtime),
                                  "--chdir=/tmp"};
  if (!settings.partition.empty()) out.push_back("--partition=" + settings.partition);
  if (!launch.priority_class.empty()) out.push_back("--qos=" + launch.priority_class);
  if (cpus > 0) out.push_back("--cpus-per-task=" + std::to_string(cpus));
  if (gpus > 0) {
    const std::string type =
        launch.flavor.empty() || !settings.typed_gres ? "" : launch.flavor + ":";
    out.push_back("--gres=gpu:" + type + std::to_string(gpus));
  }
  if (owner) {
    out.push_back("--uid=" + std::to_string(owner->uid));
    out.push_back("--gid=" + std::to_string(owner->gid));
  }
  if (!after.empty()) {
    std::string dependency = "--dependency=afterany";
    for (const std::string& id : after) dependency += ":" + id;
    out.push_back(std::move(dependency));
  }
  return out;
}

// SubmitMode::kAllocation's launcher (sh -c; $1 salloc's message file, then
// salloc's argv): salloc in a session of its own, outliving this shell and
// allotd; the job id printed as soon as salloc names it (it does within tens
// of milliseconds, granted or queued: the file is read every 10 ms, which
// costs less than a blocking `tail -f | sed` did, 11.5 against 20 ms a launch,
// docs/benchmarks.md "slurm14"), with salloc's pid and start time
// (salloc_process.h), read with builtins before anything could reap salloc
// (setsid and setpriv exec: the pid is salloc's). The file is emptied before
// salloc starts: a requeued workload's earlier run named another id.
constexpr std::string_view kAllocationLauncher = R"(umask 077
log=$1; shift
: >"$log"
setsid "$@" </dev/null >/dev/null 2>>"$log" &
pid=$!
start=
if read -r stat <"/proc/$pid/stat"; then
  set -- ${stat##*') '}
  if [ $# -ge 20 ]; then start=${20}; fi
fi 2>/dev/null
while :; do
  id=$(sed -n '/^salloc: \(Granted\|Pending\) job allocation [0-9]/{s/^salloc: [A-Za-z]* job allocation \([0-9][0-9]*\).*/\1/p;q}' "$log")
  if [ -n "$id" ]; then echo "$id $pid $start"; exit 0; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; exit 1; fi
  sleep 0.01
done)";

// SubmitMode::kAllocation's submission: the launcher, salloc with the job's
// `options` (as the owner when there is one), srun running the script that
// the environment carries (kScriptCarrier): nothing of the job's env in argv.
Submission allocation_of(const WorkloadLaunch& launch, const SubmitSettings& settings,
                         const std::vector<std::string>& options,
                         const std::optional<JobOwner>& owner) {
  Submission out;
  out.tool = "salloc";
  out.argv = {"sh", "-c", std::string(kAllocationLauncher), "allot-salloc",
              allocation_log_path(settings.log_dir, launch.workload)};
  if (owner) {  // the request the owner's own (slurm_jobs.h)
    out.argv.insert(out.argv.end(), {"setpriv", "--reuid=" + std::to_string(owner->uid),
                                     "--regid=" + std::to_string(owner->gid), "--clear-groups"});
  }
  out.argv.push_back("salloc");
  out.argv.insert(out.argv.end(), options.begin(), options.end());
  out.script = script_of(launch, settings.log_dir, false, owner, kScriptCarrier);
  out.env = {std::string(kScriptCarrier) + "=" + out.script};
  const std::string logs =
      settings.log_dir + "/" + std::to_string(launch.workload.value()) + "-%t.log";
  out.argv.insert(out.argv.end(),
                  {"srun", "--kill-on-bad-exit=1", "--open-mode=append", "--output=" + logs,
                   "/bin/sh", "-c", "eval \"$" + std::string(kScriptCarrier) + "\""});
  return out;
}

}  // namespace

std::string job_name_of(std::string_view prefix, WorkloadId workload) {
  return std::string(prefix) + std::to_string(workload.value());
}

std::optional<WorkloadId> workload_of_job_name(std::string_view prefix, std::string_view name) {
  if (!name.starts_with(prefix)) return std::nullopt;
  const std::optional<int64_t> id = number(name.substr(prefix.size()));
  if (!id || *id <= 0) return std::nullopt;
  return WorkloadId(static_cast<uint64_t>(*id));
}

std::string pod_log_path(const std::string& log_dir, PodId pod) {
  return log_dir + "/" + std::to_string(pod.workload.value()) + "-" + std::to_string(pod.index) +
         ".log";
}

std::string allocation_log_path(const std::string& log_dir, WorkloadId workload) {
  return log_dir + "/" + std::to_string(workload.value()) + "-salloc.log";
}

std::vector<std::string> job_log_paths(const WorkloadLaunch& launch, const std::string& log_dir) {
  std::vector<std::string> paths;
  for (const PlacedPod& pod : launch.pods) {
    paths.push_back(pod_log_path(log_dir, {launch.workload, pod.index}));
  }
  if (launch.pods.size() > 1) paths.push_back(batch_log_path(launch, log_dir));
  return paths;
}

Result<Submission> submission_of(const WorkloadLaunch& launch, const SubmitSettings& settings,
                                 const std::string& script_path,
                                 const std::optional<JobOwner>& owner,
                                 const std::vector<std::string>& after) {
  if (launch.command.empty()) return invalid_argument("a Slurm job needs a command", "command");
  ALLOT_ASSIGN_OR_RETURN(auto shares, shares_of(launch));
  if (settings.mode == SubmitMode::kAllocation) {
    return allocation_of(launch, settings, job_options(launch, settings, shares, {}, after), owner);
  }
  const bool gang = launch.pods.size() > 1;
  Submission out;
  out.argv = {"sbatch", "--parsable"};
  const std::vector<std::string> options = job_options(launch, settings, shares, owner, after);
  out.argv.insert(out.argv.end(), options.begin(), options.end());
  out.argv.insert(out.argv.end(),
                  {"--open-mode=append", "--no-requeue",
                   "--output=" + (gang ? batch_log_path(launch, settings.log_dir)
                                       : pod_log_path(settings.log_dir, {launch.workload, 0}))});
  // sbatch's own environment is the runner's (PATH, SLURM_CONF), never
  // allotd's: ALL passes that and the script sets the rest. Not NONE: with
  // NONE sbatch asks slurmd to load the account's login environment
  // (SLURM_GET_USER_ENV: `su - user -c env` at every launch, about 15 ms of
  // CPU per job on the node, docs/slurm.md).
  if (owner) out.argv.push_back("--export=ALL");
  out.argv.push_back(script_path);
  out.script = script_of(launch, settings.log_dir, gang, owner);
  return out;
}

Result<std::vector<SlurmJob>> parse_squeue(std::string_view text) {
  std::vector<SlurmJob> jobs;
  for (const std::string& line : split_fields(text, '\n')) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split_fields(line, '|');
    const std::optional<int64_t> status = f.size() == 6 ? number(f[5]) : std::nullopt;
    if (!status) return invalid_argument("cannot read squeue's line \"" + line + "\"");
    jobs.push_back({f[0], f[1], f[2], f[3], f[4], *status});
  }
  return jobs;
}

Result<std::vector<SubmittedJob>> parse_sacct_submitted(std::string_view text) {
  std::vector<SubmittedJob> jobs;
  for (const std::string& line : split_fields(text, '\n')) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split_fields(line, '|');
    const std::optional<int64_t> submitted = f.size() == 2 ? number(f[1]) : std::nullopt;
    if (!submitted || f[0].empty()) {
      return invalid_argument("cannot read sacct's line \"" + line + "\"");
    }
    jobs.push_back({f[0], *submitted});
  }
  return jobs;
}

Result<std::vector<SlurmJob>> parse_sacct(std::string_view text) {
  std::vector<SlurmJob> jobs;
  for (const std::string& line : split_fields(text, '\n')) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split_fields(line, '|');
    const std::vector<std::string> code =
        f.size() == 3 ? split_fields(f[2], ':') : std::vector<std::string>{};
    const std::optional<int64_t> exit = code.size() == 2 ? number(code[0]) : std::nullopt;
    const std::optional<int64_t> signal = code.size() == 2 ? number(code[1]) : std::nullopt;
    if (!exit || !signal) return invalid_argument("cannot read sacct's line \"" + line + "\"");
    // "CANCELLED by 0" names who cancelled it: the state is the first word.
    const std::string state = f[1].substr(0, f[1].find(' '));
    jobs.push_back({f[0], "", state, "", "", ((*exit & 0xff) << 8) | (*signal & 0x7f)});
  }
  return jobs;
}

bool is_final_job_state(std::string_view state) {
  return state == "COMPLETED" || state == "FAILED" || state == "CANCELLED" || state == "TIMEOUT" ||
         state == "NODE_FAIL" || state == "PREEMPTED" || state == "OUT_OF_MEMORY" ||
         state == "BOOT_FAIL" || state == "DEADLINE";
}

bool is_started_job_state(std::string_view state) {
  return state == "RUNNING" || state == "COMPLETING" || state == "SUSPENDED" ||
         state == "STOPPED" || (is_final_job_state(state) && state != "BOOT_FAIL");
}

std::optional<Duration> kill_wait_of(std::string_view config) {
  for (const std::string& line : split_fields(config, '\n')) {
    if (!line.starts_with("KillWait")) continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) return std::nullopt;
    const std::string value = trimmed_field(std::string_view(line).substr(eq + 1));
    const std::optional<int64_t> seconds = number(value.substr(0, value.find(' ')));
    if (!seconds || *seconds < 0) return std::nullopt;
    return Duration::seconds(*seconds);
  }
  return std::nullopt;
}

bool is_requeued_job_state(std::string_view state) {
  return state == "PENDING" || state == "REQUEUED" || state == "REQUEUE_HOLD" ||
         state == "REQUEUE_FED";
}

JobExit exit_of(const SlurmJob& job) {
  if (job.state == "NODE_FAIL" || job.state == "BOOT_FAIL") return {0, 9, true};
  JobExit out;
  out.signal = static_cast<int>(job.wait_status & 0x7f);
  out.exit_code = static_cast<int>((job.wait_status >> 8) & 0xff);
  // Slurm ended it (time limit, memory) without a status of the program's.
  if (out.signal == 0 && out.exit_code == 0 && job.state != "COMPLETED") out.signal = 9;
  return out;
}

}  // namespace allot::slurm
