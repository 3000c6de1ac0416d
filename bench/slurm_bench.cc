#include "bench/slurm_bench.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <httplib.h>
#include <sys/resource.h>

#include "backends/slurm/command_runner.h"
#include "bench/process_stats.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;
using nlohmann::json;

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// The pids scripts/slurm.sh recorded (run/started.pids: "name pid" lines).
std::map<std::string, pid_t> slurm_pids(const std::string& dir) {
  std::map<std::string, pid_t> pids;
  std::ifstream file(dir + "/run/started.pids");
  std::string name;
  pid_t pid = 0;
  while (file >> name >> pid) pids[name] = pid;
  return pids;
}

double control_plane_cpu(const std::map<std::string, pid_t>& pids, pid_t allotd) {
  double total = 0;
  for (const char* name : {"slurmctld", "slurmdbd", "slurmrestd"}) {
    if (const auto it = pids.find(name); it != pids.end()) total += cpu_time(it->second).total_s;
  }
  return total + (allotd > 0 ? cpu_time(allotd).total_s : 0);
}

size_t lines(const std::string& text) {
  size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
  return n;
}

// Waits until `remaining()` says 0 (polled every 200 ms); false on timeout.
template <typename Remaining>
bool wait_until_done(Remaining remaining, double timeout_s) {
  const auto start = SteadyClock::now();
  while (remaining() > 0) {
    if (seconds_since(start) > timeout_s) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return true;
}

// `commands_s`: CPU of the Slurm commands the side ran (sbatch, squeue...):
// the bench's own for Slurm alone, allotd's children for allot.
json side(double submit_s, double done_s, double cpu_s, double commands_s, int64_t jobs) {
  return {{"jobs", jobs},
          {"submitSeconds", submit_s},
          {"submitsPerSecond", static_cast<double>(jobs) / submit_s},
          {"allDoneSeconds", done_s},
          {"jobsPerSecondEndToEnd", static_cast<double>(jobs) / done_s},
          {"controlPlaneCpuSeconds", cpu_s},
          {"commandsCpuSeconds", commands_s}};
}

// CPU of the children this process has waited for, in seconds.
double own_children_cpu() { return rusage_cpu_s(RUSAGE_CHILDREN); }

Result<json> slurm_alone(const SlurmBenchConfig& c, slurm::ProcessRunner& runner) {
  (void)runner.run({"sacctmgr", "-i", "add", "account", "bench-alone"});
  (void)runner.run({"sacctmgr", "-i", "add", "user", "root", "account=bench-alone"});
  const auto pids = slurm_pids(c.slurm_dir);
  const double cpu0 = control_plane_cpu(pids, -1);
  const double commands0 = own_children_cpu();
  const auto start = SteadyClock::now();
  const std::string sleep = "sleep " + std::to_string(c.job_seconds);
  for (int64_t i = 0; i < c.jobs; ++i) {
    ALLOT_ASSIGN_OR_RETURN(
        slurm::CommandResult r,
        runner.run({"sbatch", "--parsable", "-A", "bench-alone", "-p", "gpu", "--gres=gpu:1",
                    "--mem=100", "-o", "/dev/null", "--wrap", sleep}));
    if (!r.succeeded()) return Status(ErrorCode::kUnavailable, "sbatch failed: " + r.err);
  }
  const double submit_s = seconds_since(start);
  const bool done = wait_until_done(
      [&] {
        const auto r = runner.run({"squeue", "-h", "-A", "bench-alone", "-o", "%i"});
        return r.ok() ? lines(r->out) : size_t{1};
      },
      c.timeout_s);
  if (!done) return Status(ErrorCode::kUnavailable, "Slurm alone did not finish in time");
  return side(submit_s, seconds_since(start), control_plane_cpu(pids, -1) - cpu0,
              own_children_cpu() - commands0, c.jobs);
}

std::string bench_policy(const SlurmBenchConfig& c, const std::string& rest_url) {
  std::string names;
  for (int32_t i = 1; i <= c.nodes; ++i) names += (i > 1 ? ", node" : "node") + std::to_string(i);
  const std::string gpus = std::to_string(8 * c.nodes);
  return "apiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: gpu}\n---\n"
         "apiVersion: allot/v1\nkind: Cluster\nmetadata: {name: hpc}\n"
         "spec: {backend: slurm, slurm: {clusterName: allot, partition: gpu" +
         (rest_url.empty() ? std::string() : ", rest: \"" + rest_url + "\"") +
         "}, "
         "scheduling: {cycle: 100ms}}\n---\n"
         "apiVersion: allot/v1\nkind: NodePool\nmetadata: {name: nodes}\n"
         "spec: {cluster: hpc, flavor: gpu, count: " +
         std::to_string(c.nodes) + ", nodeNames: [" + names +
         "], resources: {gpu: 8, cpu: 16, memory: 64Gi}}\n---\n"
         "apiVersion: allot/v1\nkind: PriorityClass\nmetadata: {name: bench}\nspec: {value: 1}\n"
         "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: bench-allot}\n"
         "spec: {quota: [{flavor: gpu, resources: {gpu: {nominal: " +
         gpus + "}}}]}\n";
}

// slurmrestd's URL as scripts/slurm.sh wrote it in DIR/env.
Result<std::string> bench_rest_url(const SlurmBenchConfig& c) {
  std::ifstream in(c.slurm_dir + "/env");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("SLURMRESTD_URL=")) return line.substr(15);
  }
  return Status(ErrorCode::kUnavailable, "no SLURMRESTD_URL in " + c.slurm_dir +
                                             "/env: start Slurm with ALLOT_SLURM_REST=1");
}

// How allotd reaches Slurm on one side.
enum class Way { kLibslurm, kCommands, kRest };

// kRest: allotd's jobs through slurmrestd, with a root token minted here.
Result<json> through_allot(const SlurmBenchConfig& c, slurm::ProcessRunner& runner, Way way) {
  const bool rest = way == Way::kRest;
  const std::string data =
      std::filesystem::temp_directory_path() / ("allot-slurm-bench-" + std::to_string(::getpid()));
  std::filesystem::remove_all(data);
  std::vector<std::string> flags = {
      "--backend",    "slurm", "--slurm-conf", c.slurm_dir + "/etc/slurm.conf",
      "--slurm-poll", "250ms", "--log-level",  "warn"};
  if (c.slurm_submit != "batch") flags.insert(flags.end(), {"--slurm-submit", c.slurm_submit});
  if (way == Way::kCommands) flags.insert(flags.end(), {"--slurm-transport", "commands"});
  std::string rest_url;
  if (rest) {
    ALLOT_ASSIGN_OR_RETURN(rest_url, bench_rest_url(c));
    ALLOT_ASSIGN_OR_RETURN(const slurm::CommandResult minted,
                           runner.run({"scontrol", "token", "username=root", "lifespan=7200"}));
    if (!minted.succeeded())
      return Status(ErrorCode::kUnavailable, "scontrol token: " + minted.err);
    std::ofstream(data + ".jwt") << minted.out;
    flags.insert(flags.end(),
                 {"--slurm-rest-token-file", data + ".jwt", "--slurm-rest-poll", c.rest_poll});
  }
  tools::AllotdChild allotd({c.allotd, data, "127.0.0.1:0", data + ".stderr", flags});
  if (const std::string why = allotd.start(std::chrono::seconds(60)); !why.empty()) {
    return Status(ErrorCode::kUnavailable, "allotd did not start: " + why);
  }
  httplib::Client http("127.0.0.1", allotd.port());
  http.set_read_timeout(60);
  const httplib::Headers auth = {{"Authorization", "Bearer " + allotd.admin_token()}};
  const auto applied =
      http.Post("/api/v1/apply", auth, bench_policy(c, rest_url), "application/yaml");
  if (!applied || applied->status != 200) {
    return Status(ErrorCode::kUnavailable,
                  "applying the bench policy failed: " + (applied ? applied->body : "no answer"));
  }
  const auto pids = slurm_pids(c.slurm_dir);
  const double cpu0 = control_plane_cpu(pids, allotd.pid());
  const double commands0 = cpu_time(allotd.pid()).children_s;
  const auto start = SteadyClock::now();
  const std::string body_head =
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {namespace: bench-allot, name: w";
  const std::string body_tail =
      "}\nspec: {priorityClass: bench, podSets: [{count: 1, resources: "
      "{gpu: 1}}], command: [sleep, '" +
      std::to_string(c.job_seconds) + "']}\n";
  for (int64_t i = 0; i < c.jobs; ++i) {
    const auto r = http.Post("/api/v1/namespaces/bench-allot/workloads", auth,
                             body_head + std::to_string(i) + body_tail, "application/yaml");
    if (!r || r->status >= 300) {
      return Status(ErrorCode::kUnavailable, "a submit failed: " + (r ? r->body : "no answer"));
    }
  }
  const double submit_s = seconds_since(start);
  const bool done = wait_until_done(
      [&] {
        const auto r = http.Get(
            "/api/v1/namespaces/bench-allot/workloads?phase=Pending,Admitted,Running&limit=1",
            auth);
        if (!r || r->status != 200) return size_t{1};
        return json::parse(r->body)["items"].size();
      },
      c.timeout_s);
  const double done_s = seconds_since(start);
  const double cpu_s = control_plane_cpu(pids, allotd.pid()) - cpu0;
  const double commands_s = cpu_time(allotd.pid()).children_s - commands0;
  const auto failed =
      http.Get("/api/v1/namespaces/bench-allot/workloads?phase=Failed,Cancelled&limit=1000", auth);
  allotd.stop(std::chrono::seconds(30));
  tools::remove_host_accounts(c.allotd, data, stderr);
  std::filesystem::remove_all(data);
  std::filesystem::remove(data + ".jwt");
  if (!done) return Status(ErrorCode::kUnavailable, "allot on Slurm did not finish in time");
  json out = side(submit_s, done_s, cpu_s, commands_s, c.jobs);
  out["failed"] = failed && failed->status == 200 ? json::parse(failed->body)["items"].size() : 0;
  return out;
}

}  // namespace

Result<json> run_slurm_bench(const SlurmBenchConfig& c) {
  slurm::ProcessRunner runner(slurm::slurm_environment(c.slurm_dir + "/etc/slurm.conf"),
                              Duration::seconds(120));
  ALLOT_ASSIGN_OR_RETURN(json alone, slurm_alone(c, runner));
  ALLOT_ASSIGN_OR_RETURN(json allot, through_allot(c, runner, Way::kLibslurm));
  json out = json{{"bench", "slurm"},
                  {"nodes", c.nodes},
                  {"jobs", c.jobs},
                  {"jobSeconds", c.job_seconds},
                  {"slurmAlone", std::move(alone)},
                  {"allotOnSlurm", std::move(allot)}};
  if (c.commands) {
    ALLOT_ASSIGN_OR_RETURN(out["allotOnSlurmCommands"], through_allot(c, runner, Way::kCommands));
  }
  if (c.rest) {
    ALLOT_ASSIGN_OR_RETURN(out["allotOnSlurmRest"], through_allot(c, runner, Way::kRest));
  }
  return out;
}

}  // namespace allot::bench
