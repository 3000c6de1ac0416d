#include "bench/slurm_lend_borrow.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <map>
#include <sstream>
#include <thread>
#include <utility>

#include <httplib.h>

#include "backends/slurm/command_runner.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

using nlohmann::json;
using WallClock = std::chrono::system_clock;

double now_s() {
  return std::chrono::duration<double>(WallClock::now().time_since_epoch()).count();
}

void sleep_until_s(double at) {
  const double left = at - now_s();
  if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double>(left));
}

// One planned submission: team B or A, when (seconds from the way's start).
struct Planned {
  bool team_b = false;
  double at = 0;
};

// A at `load` x what the whole cluster finishes from 0; B at `load` x what
// its half finishes from return_at; both until stream_seconds.
std::vector<Planned> schedule(const LendBorrowConfig& c) {
  const double per_gpu_second = 1.0 / (c.job_gpus * c.job_seconds);
  const double rate_a = c.load * lend_borrow_gpus(c) * per_gpu_second;
  const double rate_b = rate_a / 2;
  std::vector<Planned> out;
  for (int64_t i = 0; static_cast<double>(i) / rate_a < c.stream_seconds; ++i) {
    out.push_back({false, static_cast<double>(i) / rate_a});
  }
  for (int64_t i = 0; c.return_at + static_cast<double>(i) / rate_b < c.stream_seconds; ++i) {
    out.push_back({true, c.return_at + static_cast<double>(i) / rate_b});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Planned& x, const Planned& y) { return x.at < y.at; });
  return out;
}

// sacct's "2026-12-04T16:50:01" (TZ=UTC) as epoch seconds; -1 for
// "Unknown", "None" and the like.
double epoch_of(const std::string& text) {
  std::tm tm{};
  std::istringstream in(text);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
  if (in.fail()) return -1;
  return static_cast<double>(timegm(&tm));
}

// A job's run that ended on its own (the job asks no more).
bool ended_by_itself(const std::string& state) {
  for (const char* final : {"COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL"}) {
    if (state.starts_with(final)) return true;
  }
  return false;
}

// Every run of the jobs of `accounts` since t0 (sacct -D: a requeued job's
// earlier runs too), in sacct's order by job id: name -> runs, times relative
// to t0. A job whose last run was stopped within the window (Slurm's
// PREEMPTED, allot's CANCELLED) was waiting again (requeued in Slurm, or in
// allot's queue): a run that never started is added. One cancelled by the
// bench at the window's end was running then.
Result<std::map<std::string, std::vector<LendBorrowRun>>> runs_of(slurm::CommandRunner& runner,
                                                                  const std::string& accounts,
                                                                  double t0, double window) {
  const std::time_t since = static_cast<std::time_t>(t0) - 5;
  char when[32];
  std::tm tm{};
  gmtime_r(&since, &tm);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
  ALLOT_ASSIGN_OR_RETURN(
      const slurm::CommandResult r,
      runner.run({"env", "TZ=UTC", "sacct", "-n", "-P", "-X", "-D", "-a", "-A", accounts, "-S",
                  when, "-E", "now", "-o", "JobIDRaw,JobName,Start,End,State"}));
  if (!r.succeeded()) return Status(ErrorCode::kUnavailable, "sacct: " + r.said());
  struct Row {
    int64_t id = 0;
    std::string name;
    LendBorrowRun run;
    std::string state;
  };
  std::vector<Row> rows;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, '|');) f.push_back(field);
    if (f.size() < 5) continue;
    LendBorrowRun run;
    const double start = epoch_of(f[2]);
    const double end = epoch_of(f[3]);
    run.start = start < 0 ? -1 : std::max(0.0, start - std::floor(t0));
    run.end = end < 0 ? -1 : std::max(0.0, end - std::floor(t0));
    rows.push_back({std::atoll(f[0].c_str()), f[1], run, f[4]});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& x, const Row& y) { return x.id < y.id; });
  std::map<std::string, std::vector<LendBorrowRun>> out;
  std::map<std::string, std::string> last_state;
  for (const Row& row : rows) {
    out[row.name].push_back(row.run);
    last_state[row.name] = row.state;
  }
  for (auto& [name, runs] : out) {
    const LendBorrowRun& last = runs.back();
    if (last.start >= 0 && last.end >= 0 && last.end < window &&
        !ended_by_itself(last_state[name])) {
      runs.push_back({});  // stopped within the window: waiting again
    }
  }
  return out;
}

// Until Slurm runs and holds no job at all (the way before may still be
// completing): false after a minute.
bool wait_idle(slurm::CommandRunner& runner) {
  for (int i = 0; i < 300; ++i) {
    const auto r = runner.run({"squeue", "-h", "-o", "%i"});
    if (r.ok() && r->succeeded() && r->out.find_first_not_of(" \n") == std::string::npos)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

void cancel_accounts(slurm::CommandRunner& runner, const std::vector<std::string>& accounts) {
  for (const std::string& account : accounts) {
    (void)runner.run({"scancel", "--account=" + account});  // one account per call
  }
  (void)wait_idle(runner);
}

// The ledger of one way: planned jobs, when each was submitted, its key in
// Slurm's job names.
struct Ledger {
  std::vector<LendBorrowJob> jobs;
  std::map<std::string, size_t> by_name;
};

Result<json> figures_of(slurm::CommandRunner& runner, Ledger& ledger,
                        const std::vector<std::string>& accounts, double t0,
                        const LendBorrowConfig& c,
                        const std::function<std::string(const std::string&)>& key_of) {
  std::string list;
  for (const std::string& a : accounts) list += (list.empty() ? "" : ",") + a;
  ALLOT_ASSIGN_OR_RETURN(auto runs, runs_of(runner, list, t0, c.stream_seconds));
  for (auto& [name, job_runs] : runs) {
    const auto it = ledger.by_name.find(key_of(name));
    if (it != ledger.by_name.end()) ledger.jobs[it->second].runs = std::move(job_runs);
  }
  return lend_borrow_figures(ledger.jobs, c);
}

std::string team_letter(bool b) { return b ? "b" : "a"; }

// Slurm alone: `qos` false = GrpTRES at half each; true = no caps, B's QoS preempts A's.
Result<json> slurm_way(const LendBorrowConfig& c, slurm::CommandRunner& runner, bool qos) {
  const std::string prefix = qos ? "lb-qos-" : "lb-grp-";
  const std::vector<std::string> accounts = {prefix + "a", prefix + "b"};
  const std::string both = accounts[0] + "," + accounts[1];
  if (qos) {
    (void)runner.run({"sacctmgr", "-i", "add", "qos", "lb-scav,lb-prio"});
    (void)runner.run({"sacctmgr", "-i", "modify", "qos", "where", "name=lb-scav", "set",
                      "priority=0", "preemptmode=requeue"});
    (void)runner.run({"sacctmgr", "-i", "modify", "qos", "where", "name=lb-prio", "set",
                      "priority=100", "preempt=lb-scav", "preemptmode=requeue"});
  }
  (void)runner.run({"sacctmgr", "-i", "add", "account", both});
  (void)runner.run({"sacctmgr", "-i", "add", "user", "root", "account=" + both});
  const std::string half = "gres/gpu=" + std::to_string(lend_borrow_gpus(c) / 2);
  (void)runner.run({"sacctmgr", "-i", "modify", "account", "where", "name=" + both, "set",
                    "GrpTRES=" + (qos ? std::string("gres/gpu=-1") : half)});
  if (qos) {
    (void)runner.run({"sacctmgr", "-i", "modify", "user", "root", "where", "account=" + both, "set",
                      "qos=normal,lb-scav,lb-prio"});
  }
  if (!wait_idle(runner)) return Status(ErrorCode::kUnavailable, "Slurm did not become idle");
  Ledger ledger;
  const std::string sleep = "sleep " + std::to_string(c.job_seconds);
  const double t0 = now_s();
  for (const Planned& p : schedule(c)) {
    sleep_until_s(t0 + p.at);
    const std::string name =
        prefix + team_letter(p.team_b) + "-" + std::to_string(ledger.jobs.size());
    std::vector<std::string> argv = {
        "sbatch",    "--parsable", "-J",
        name,        "-A",         accounts[p.team_b ? 1 : 0],
        "-p",        "gpu",        "--gres=gpu:" + std::to_string(c.job_gpus),
        "--mem=100", "-o",         "/dev/null"};
    if (qos) argv.insert(argv.end(), {"--requeue", p.team_b ? "--qos=lb-prio" : "--qos=lb-scav"});
    argv.insert(argv.end(), {"--wrap", sleep});
    const double submitted = now_s();
    ALLOT_ASSIGN_OR_RETURN(const slurm::CommandResult r, runner.run(argv));
    if (!r.succeeded()) return Status(ErrorCode::kUnavailable, "sbatch failed: " + r.said());
    ledger.by_name[name] = ledger.jobs.size();
    ledger.jobs.push_back({p.team_b, std::floor(submitted) - std::floor(t0), {}});
  }
  sleep_until_s(t0 + c.stream_seconds);
  cancel_accounts(runner, accounts);
  return figures_of(runner, ledger, accounts, t0, c, [](const std::string& name) { return name; });
}

std::string allot_policy(const LendBorrowConfig& c) {
  std::string names;
  for (int32_t i = 1; i <= c.nodes; ++i) names += (i > 1 ? ", node" : "node") + std::to_string(i);
  const std::string half = std::to_string(lend_borrow_gpus(c) / 2);
  std::string text =
      "apiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: gpu}\n---\n"
      "apiVersion: allot/v1\nkind: Cluster\nmetadata: {name: hpc}\n"
      "spec: {backend: slurm, slurm: {clusterName: allot, partition: gpu}, "
      "scheduling: {cycle: 100ms}}\n---\n"
      "apiVersion: allot/v1\nkind: NodePool\nmetadata: {name: nodes}\n"
      "spec: {cluster: hpc, flavor: gpu, count: " +
      std::to_string(c.nodes) + ", nodeNames: [" + names +
      "], resources: {gpu: 8, cpu: 16, memory: 64Gi}}\n---\n"
      "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: lb}\n---\n"
      "apiVersion: allot/v1\nkind: PriorityClass\nmetadata: {name: lb}\n"
      "spec: {value: 1, preemptionPolicy: PreemptLowerPriority, preemptionGracePeriod: 1s}\n";
  for (const char* team : {"lb-allot-a", "lb-allot-b"}) {
    text += std::string("---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: ") + team +
            "}\nspec: {cohort: lb, quota: [{flavor: gpu, resources: {gpu: {nominal: " + half +
            "}}}], preemption: {reclaimWithinCohort: Any}}\n";
  }
  return text;
}

// A 1-GPU job per team, until each succeeded (a minute at most).
Status warm_up(httplib::Client& http, const httplib::Headers& auth,
               const std::vector<std::string>& teams) {
  for (const std::string& team : teams) {
    const std::string body = "apiVersion: allot/v1\nkind: Workload\nmetadata: {namespace: " + team +
                             ", name: warm-up}\nspec: {priorityClass: lb, podSets: [{count: 1, "
                             "resources: {gpu: 1}}], command: ['true']}\n";
    const auto r =
        http.Post("/api/v1/namespaces/" + team + "/workloads", auth, body, "application/yaml");
    if (!r || r->status >= 300) {
      return Status(ErrorCode::kUnavailable, "warm-up failed: " + (r ? r->body : "no answer"));
    }
  }
  for (int i = 0; i < 300; ++i) {
    size_t done = 0;
    for (const std::string& team : teams) {
      const auto r = http.Get("/api/v1/namespaces/" + team + "/workloads/warm-up", auth);
      if (r && r->status == 200 && json::parse(r->body)["status"]["phase"] == "Succeeded") ++done;
    }
    if (done == teams.size()) return Status::ok_status();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return Status(ErrorCode::kUnavailable, "the warm-up jobs did not succeed within a minute");
}

// allotd on Slurm: A and B each guaranteed half, lending and reclaim.
Result<json> allot_way(const LendBorrowConfig& c, slurm::CommandRunner& runner) {
  const std::vector<std::string> accounts = {"lb-allot-a", "lb-allot-b"};
  const std::string data =
      std::filesystem::temp_directory_path() / ("allot-lend-borrow-" + std::to_string(::getpid()));
  std::filesystem::remove_all(data);
  std::vector<std::string> flags = {
      "--backend",    "slurm", "--slurm-conf", c.slurm_dir + "/etc/slurm.conf",
      "--slurm-poll", "250ms", "--log-level",  "warn"};
  if (c.slurm_submit != "batch") flags.insert(flags.end(), {"--slurm-submit", c.slurm_submit});
  tools::AllotdChild allotd({c.allotd, data, "127.0.0.1:0", data + ".stderr", flags});
  if (const std::string why = allotd.start(std::chrono::seconds(60)); !why.empty()) {
    return Status(ErrorCode::kUnavailable, "allotd did not start: " + why);
  }
  httplib::Client http("127.0.0.1", allotd.port());
  http.set_read_timeout(60);
  const httplib::Headers auth = {{"Authorization", "Bearer " + allotd.admin_token()}};
  const auto applied = http.Post("/api/v1/apply", auth, allot_policy(c), "application/yaml");
  if (!applied || applied->status != 200) {
    return Status(ErrorCode::kUnavailable,
                  "applying the policy failed: " + (applied ? applied->body : "no answer"));
  }
  if (!wait_idle(runner)) return Status(ErrorCode::kUnavailable, "Slurm did not become idle");
  // One job per team first: the nodes Ready, each team's Unix account and
  // Slurm association made (the first job of an account waits for them).
  if (Status warm = warm_up(http, auth, accounts); !warm.ok()) return warm;
  Ledger ledger;
  const std::string tail = "}\nspec: {priorityClass: lb, podSets: [{count: 1, resources: {gpu: " +
                           std::to_string(c.job_gpus) + "}}], command: [sleep, '" +
                           std::to_string(c.job_seconds) + "']}\n";
  const double t0 = now_s();
  for (const Planned& p : schedule(c)) {
    sleep_until_s(t0 + p.at);
    const std::string& team = accounts[p.team_b ? 1 : 0];
    std::string body = "apiVersion: allot/v1\nkind: Workload\nmetadata: {namespace: " + team;
    body += ", name: w" + std::to_string(ledger.jobs.size());
    body += tail;
    const double submitted = now_s();
    const auto r =
        http.Post("/api/v1/namespaces/" + team + "/workloads", auth, body, "application/yaml");
    if (!r || r->status >= 300) {
      return Status(ErrorCode::kUnavailable, "a submit failed: " + (r ? r->body : "no answer"));
    }
    const std::string uid = json::parse(r->body)["metadata"]["uid"].dump();
    ledger.by_name[uid] = ledger.jobs.size();
    ledger.jobs.push_back({p.team_b, std::floor(submitted) - std::floor(t0), {}});
  }
  sleep_until_s(t0 + c.stream_seconds);
  allotd.stop(std::chrono::seconds(30));  // its jobs stay in Slurm: cancelled below
  cancel_accounts(runner, accounts);
  tools::remove_host_accounts(c.allotd, data, stderr);
  std::filesystem::remove_all(data);
  // allot's job names end in the workload's uid ("allot-<8 hex>-<uid>").
  return figures_of(runner, ledger, accounts, t0, c,
                    [](const std::string& name) { return name.substr(name.rfind('-') + 1); });
}

}  // namespace

Result<json> run_lend_borrow_bench(const LendBorrowConfig& c) {
  slurm::ProcessRunner runner(slurm::slurm_environment(c.slurm_dir + "/etc/slurm.conf"),
                              Duration::seconds(120));
  const auto planned = schedule(c);
  const auto b_jobs =
      std::count_if(planned.begin(), planned.end(), [](const Planned& p) { return p.team_b; });
  json out = {{"bench", "slurm"},
              {"scenario", "lend-borrow"},
              {"nodes", c.nodes},
              {"gpus", lend_borrow_gpus(c)},
              {"guaranteePerTeamGpus", lend_borrow_gpus(c) / 2},
              {"jobGpus", c.job_gpus},
              {"jobSeconds", c.job_seconds},
              {"streamSeconds", c.stream_seconds},
              {"teamBReturnsAt", c.return_at},
              {"load", c.load},
              {"jobsA", static_cast<int64_t>(planned.size()) - b_jobs},
              {"jobsB", b_jobs}};
  for (const std::string& way : c.ways) {
    if (way == "allot") {
      ALLOT_ASSIGN_OR_RETURN(out["allotOnSlurm"], allot_way(c, runner));
    } else if (way == "grptres") {
      ALLOT_ASSIGN_OR_RETURN(out["slurmGrpTres"], slurm_way(c, runner, false));
    } else if (way == "qos") {
      ALLOT_ASSIGN_OR_RETURN(out["slurmQosPreemption"], slurm_way(c, runner, true));
    }
  }
  return out;
}

}  // namespace allot::bench
