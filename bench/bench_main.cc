// allot-bench: `scale` runs the scale test and prints its figures
// against the goals; `api` measures a real allotd through its REST API;
// `connections` what idle and slow clients cost a real allotd's /healthz;
// `mixed` many clients sending every kind of request to a real allotd;
// `chaos` the same while allotd is killed with SIGKILL and nodes fail, with
// the invariants checked after each restart;
// `scim` provisions 10,000 users and 1,000 groups through /scim/v2 of a real
// allotd and times a 5,000-member PATCH;
// `replay` runs a scenario through a running allotd in real time and compares
// it with its simulation; `micro` runs the Google Benchmark microbenchmarks.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/api_bench.h"
#include "bench/api_pairs.h"
#include "bench/chaos_bench.h"
#include "bench/connections_bench.h"
#include "bench/micro_bench.h"
#include "bench/mixed_bench.h"
#include "bench/replay_bench.h"
#include "bench/replay_report.h"
#include "bench/scale_bench.h"
#include "bench/scale_report.h"
#include "bench/scim_bench.h"
#include "bench/slurm_bench.h"
#include "bench/slurm_lend_borrow.h"
#include "cli/client/api_client.h"

namespace {

// allotd of the same build: bench/allot-bench -> src/app/allotd.
std::string default_allotd() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "allotd";
  return (self.parent_path() / ".." / "src" / "app" / "allotd").lexically_normal().string();
}

const CLI::IsMember kOutputs({"json", "table"});

void add_scale_flags(CLI::App& command, allot::bench::ScaleConfig& c, std::string& output) {
  command.add_option("-o,--output", output, "json or table")->check(kOutputs);
  command.add_option("--seed", c.seed, "seed of the generated world");
  command.add_option("--pending", c.pending, "pending workloads")->check(CLI::Range(1, 10'000'000));
  command.add_option("--nodes", c.nodes, "nodes, split over the flavors")
      ->check(CLI::Range(allot::bench::kFlavorCount, 1'000'000));
  command.add_option("--teams", c.teams, "regular teams")->check(CLI::Range(1, 100'000));
  command.add_option("--urgent-teams", c.urgent_teams, "teams that lend and then reclaim")
      ->check(CLI::Range(1, 1'000));
  command.add_option("--runs", c.runs, "plan() runs per median")->check(CLI::Range(1, 1'000));
  command.add_option("--preemption-runs", c.preemption_runs, "urgent gangs timed")
      ->check(CLI::Range(1, 100'000));
  command.add_flag("--fair-sharing", c.fair_sharing, "weighted DRS ordering instead of classic");
  command.add_flag("--consolidation", c.consolidation,
                   "move work within nominal for owed workloads (scheduling.consolidation)");
  command
      .add_option_function<std::vector<std::string>>(
          "--phases",
          [&c](const std::vector<std::string>& phases) {
            const auto has = [&](const char* name) {
              return std::find(phases.begin(), phases.end(), name) != phases.end();
            };
            c.phase_full = has("full");
            c.phase_steady = has("steady");
            c.phase_preemption = has("preemption");
            c.phase_small = has("small");
          },
          "measurements to take (default all): full steady preemption small")
      ->delimiter(',')
      ->check(CLI::IsMember({"full", "steady", "preemption", "small"}));
}

void add_api_flags(CLI::App& command, allot::bench::ApiConfig& c, std::string& output) {
  command.add_option("-o,--output", output, "json or table")->check(kOutputs);
  command.add_option("--allotd", c.allotd, "the allotd binary (default: the one of this build)");
  command.add_option("--data-dir", c.data_dir, "allotd's data (default: a fresh folder, removed)");
  command.add_option("--clients", c.clients, "concurrent submitting clients")
      ->check(CLI::Range(1, 1'000));
  command.add_option("--submits", c.submits, "workloads submitted")
      ->check(CLI::Range(1, 10'000'000));
  command.add_option("--list-runs", c.list_runs, "timed lists of 10,000")
      ->check(CLI::Range(1, 100'000));
  command.add_option("--restart-workloads", c.restart_workloads, "workloads stored at the restart")
      ->check(CLI::Range(1, 10'000'000));
  command.add_option("--apply-batch", c.apply_batch, "Workload documents per apply while filling")
      ->check(CLI::Range(1, 10'000));
  command.add_option("--allotd-threads", c.allotd_threads, "allotd --threads")
      ->check(CLI::Range(1, 4'096));
  command
      .add_option("--audit", c.audit,
                  "allotd --audit: on, off, or both (two allotds in one run, submits in "
                  "alternating slices: the audit log's cost)")
      ->check(CLI::IsMember({"on", "off", "both"}));
  command.add_option("--slices", c.slices, "--audit both: pairs of slices, submits / slices each")
      ->check(CLI::Range(1, 10'000));
  command
      .add_option("--metering", c.metering, "allotd --metering: on, or off (the A/B of its cost)")
      ->check(CLI::IsMember({"on", "off"}));
}

void add_connections_flags(CLI::App& command, allot::bench::ConnectionsConfig& c,
                           std::string& output) {
  command.add_option("-o,--output", output, "json or table")->check(kOutputs);
  command.add_option("--allotd", c.allotd, "the allotd binary (default: the one of this build)");
  command.add_option("--idle", c.idle, "connections that never send a byte")
      ->check(CLI::Range(0, 100'000));
  command.add_option("--slow", c.slow, "connections sending one header byte per interval")
      ->check(CLI::Range(0, 10'000));
  command.add_option("--slow-interval-ms", c.slow_interval_ms, "between a slow client's bytes")
      ->check(CLI::Range(10, 60'000));
  command.add_option("--probes", c.probes, "timed GET /healthz, one after another")
      ->check(CLI::Range(1, 1'000'000));
  command.add_option("--probe-gap-ms", c.probe_gap_ms, "pause between probes")
      ->check(CLI::Range(0, 60'000));
  command.add_option("--probe-timeout-ms", c.probe_timeout_ms, "a probe's limit")
      ->check(CLI::Range(1, 600'000));
  command.add_option("--allotd-threads", c.allotd_threads, "allotd --threads")
      ->check(CLI::Range(1, 4'096));
}

void add_mixed_flags(CLI::App& command, allot::bench::MixedConfig& c, std::string& output) {
  command.add_option("-o,--output", output, "json or table")->check(kOutputs);
  command.add_option("--allotd", c.allotd, "the allotd binary (default: the one of this build)");
  command.add_option("--clients", c.clients, "concurrent clients")->check(CLI::Range(1, 5'000));
  command.add_option("--seconds", c.seconds, "how long they run")->check(CLI::Range(1, 86'400));
  command.add_option("--timeout-s", c.timeout_s, "a request without an answer after it times out")
      ->check(CLI::Range(1, 600));
  command.add_option("--nodes", c.nodes, "nodes of 8 GPUs")->check(CLI::Range(1, 1'000));
  command.add_option("--seed", c.seed, "seed of the clients' choices");
  command.add_option("--allotd-threads", c.allotd_threads, "allotd --threads")
      ->check(CLI::Range(1, 4'096));
}

void add_chaos_flags(CLI::App& command, allot::bench::ChaosConfig& c, std::string& output) {
  command.add_option("-o,--output", output, "json or table")->check(kOutputs);
  command.add_option("--allotd", c.allotd, "the allotd binary (default: the one of this build)");
  command.add_option("--clients", c.clients, "concurrent clients")->check(CLI::Range(1, 5'000));
  command.add_option("--seconds", c.seconds, "seconds of load, over all rounds")
      ->check(CLI::Range(1, 86'400));
  command.add_option("--rounds", c.rounds, "rounds, each with a kill -9, a restart and a check")
      ->check(CLI::Range(1, 1'000));
  command.add_option("--timeout-s", c.timeout_s, "a request without an answer after it is unknown")
      ->check(CLI::Range(1, 600));
  command.add_option("--nodes", c.nodes, "nodes of 8 GPUs")->check(CLI::Range(1, 1'000));
  command.add_option("--seed", c.seed, "seed of the kills, the node failures and the clients");
  command.add_option("--allotd-threads", c.allotd_threads, "allotd --threads")
      ->check(CLI::Range(1, 4'096));
  command.add_flag("!--no-node-failures", c.fail_nodes, "keep every node healthy");
  command.add_option("--postgres", c.postgres,
                     "a PostgreSQL server's conninfo: state in a fresh database there, and a "
                     "standby allotd that takes over at each kill (default: SQLite)");
}

void add_replay_flags(CLI::App& command, allot::bench::ReplayConfig& c, std::string& output) {
  command.add_option("--scenario", c.scenario, "policy and Scenario file")->required();
  command.add_option("-o,--output", output, "table or json")->check(kOutputs);
  command.add_option("--submitters", c.submitters, "concurrent submitting clients")
      ->check(CLI::Range(1, 64));
  command.add_option("--sample-interval-ms", c.sample_ms, "how often usage is sampled")
      ->check(CLI::Range(10, 10000));
  command.add_option("--server", c.server,
                     "allotd address, http://HOST:PORT (default: $ALLOT_SERVER, the config "
                     "file's server:, then http://127.0.0.1:7800)");
}

void add_scim_flags(CLI::App& command, allot::bench::ScimBenchConfig& c, std::string& output) {
  command.add_option("-o,--output", output, "json or table")->check(kOutputs);
  command.add_option("--allotd", c.allotd, "the allotd binary (default: the one of this build)");
  command.add_option("--users", c.users, "Users POSTed")->check(CLI::Range(1, 1'000'000));
  command.add_option("--groups", c.groups, "Groups POSTed")->check(CLI::Range(1, 100'000));
  command.add_option("--members", c.members, "members added to one group in one PATCH")
      ->check(CLI::Range(1, 1'000'000));
  command.add_option("--clients", c.clients, "concurrent provisioning clients")
      ->check(CLI::Range(1, 1'000));
  command.add_option("--allotd-threads", c.allotd_threads, "allotd --threads")
      ->check(CLI::Range(1, 4'096));
}

template <typename Report>
void print(const Report& report, const std::string& output) {
  if (output == "json") {
    allot::bench::print_json(report, stdout);
  } else {
    allot::bench::print_table(report, stdout);
  }
}

int run_scale(const allot::bench::ScaleConfig& config, const std::string& output) {
  print(allot::bench::run_scale(config, stderr), output);
  return 0;
}

int run_api(const allot::bench::ApiConfig& config, const std::string& output) {
  if (config.audit == "both") {
    const allot::bench::AuditPairsReport report = allot::bench::run_audit_pairs(config, stderr);
    print(report, output);
    if (!report.error.empty()) std::fprintf(stderr, "allot-bench api: %s\n", report.error.c_str());
    return report.error.empty() ? 0 : 1;
  }
  const allot::bench::ApiReport report = allot::bench::run_api(config, stderr);
  print(report, output);
  if (!report.error.empty()) std::fprintf(stderr, "allot-bench api: %s\n", report.error.c_str());
  return report.error.empty() ? 0 : 1;
}

int run_mixed(const allot::bench::MixedConfig& config, const std::string& output) {
  const allot::bench::MixedReport report = allot::bench::run_mixed(config, stderr);
  const std::string text = output == "json" ? allot::bench::mixed_report_json(report)
                                            : allot::bench::mixed_report_text(report);
  std::fputs(text.c_str(), stdout);
  return report.error.empty() ? 0 : 1;
}

int run_connections(const allot::bench::ConnectionsConfig& config, const std::string& output) {
  const allot::bench::ConnectionsReport report = allot::bench::run_connections(config, stderr);
  const std::string text = output == "json" ? allot::bench::connections_report_json(report)
                                            : allot::bench::connections_report_text(report);
  std::fputs(text.c_str(), stdout);
  return report.error.empty() ? 0 : 1;
}

int run_scim(const allot::bench::ScimBenchConfig& config, const std::string& output) {
  const allot::bench::ScimBenchReport report = allot::bench::run_scim_bench(config, stderr);
  const std::string text = output == "json" ? allot::bench::scim_bench_json(report)
                                            : allot::bench::scim_bench_text(report);
  std::fputs(text.c_str(), stdout);
  return report.error.empty() ? 0 : 1;
}

// 1 when an invariant was violated or the run could not finish.
int run_chaos(const allot::bench::ChaosConfig& config, const std::string& output) {
  const allot::bench::ChaosReport report = allot::bench::run_chaos(config, stderr);
  const std::string text = output == "json" ? allot::bench::chaos_report_json(report)
                                            : allot::bench::chaos_report_text(report);
  std::fputs(text.c_str(), stdout);
  return report.passed() ? 0 : 1;
}

// As the allot CLI reports errors: 2 for what the user can fix, 1 otherwise.
int run_replay(const allot::bench::ReplayConfig& config, const std::string& output) {
  const allot::Result<nlohmann::json> report = allot::bench::run_replay(config, stderr);
  if (!report.ok()) {
    const allot::Status& status = report.status();
    std::string text = status.message().empty() ? std::string(allot::error_code_name(status.code()))
                                                : status.message();
    if (!status.details().empty()) text += " (at " + status.details() + ")";
    std::fprintf(stderr, "error: %s\n", text.c_str());
    if (const std::string hint = allot::cli::connection_hint(status); !hint.empty()) {
      std::fprintf(stderr, "hint: %s\n", hint.c_str());
    }
    const allot::ErrorCode code = status.code();
    return code == allot::ErrorCode::kInternal || code == allot::ErrorCode::kUnavailable ||
                   code == allot::ErrorCode::kResourceExhausted
               ? 1
               : 2;
  }
  const std::string text =
      output == "json" ? report->dump(2) + "\n" : allot::bench::replay_report_table(*report);
  std::fputs(text.c_str(), stdout);
  return 0;
}

// `allot-bench slurm`: Slurm alone and allotd on Slurm, side by side (slurm_bench.h).
// `--scenario lend-borrow`: the three ways of slurm_lend_borrow.h, as JSON.
int run_lend_borrow(allot::bench::SlurmBenchConfig config, bool job_seconds_given) {
  allot::bench::LendBorrowConfig& c = config.lend_borrow;
  c.slurm_dir = config.slurm_dir;
  c.allotd = config.allotd;
  c.nodes = config.nodes;
  c.slurm_submit = config.slurm_submit;
  if (job_seconds_given) c.job_seconds = config.job_seconds;
  const allot::Result<nlohmann::json> report = allot::bench::run_lend_borrow_bench(c);
  if (!report.ok()) {
    std::fprintf(stderr, "error: %s\n", report.status().to_string().c_str());
    return 1;
  }
  std::fputs((report->dump(2) + "\n").c_str(), stdout);
  return 0;
}

int run_slurm(const allot::bench::SlurmBenchConfig& config, const std::string& output,
              bool job_seconds_given) {
  if (config.scenario == "lend-borrow") return run_lend_borrow(config, job_seconds_given);
  const allot::Result<nlohmann::json> report = allot::bench::run_slurm_bench(config);
  if (!report.ok()) {
    std::fprintf(stderr, "error: %s\n", report.status().to_string().c_str());
    return 1;
  }
  if (output == "json") {
    std::fputs((report->dump(2) + "\n").c_str(), stdout);
    return 0;
  }
  for (const char* side :
       {"slurmAlone", "allotOnSlurm", "allotOnSlurmCommands", "allotOnSlurmRest"}) {
    if (!report->contains(side)) continue;
    const nlohmann::json& s = (*report)[side];
    std::printf(
        "%-20s submits/s %7.1f  all done %7.1f s  jobs/s %6.1f  control-plane CPU %6.1f s  "
        "commands CPU %6.1f s\n",
        side, s["submitsPerSecond"].get<double>(), s["allDoneSeconds"].get<double>(),
        s["jobsPerSecondEndToEnd"].get<double>(), s["controlPlaneCpuSeconds"].get<double>(),
        s["commandsCpuSeconds"].get<double>());
  }
  return 0;
}

void add_slurm_flags(CLI::App& command, allot::bench::SlurmBenchConfig& c, std::string& output) {
  command.add_option("-o,--output", output, "json or table")->check(kOutputs);
  command
      .add_option("--slurm-dir", c.slurm_dir,
                  "the DIR of a running `scripts/slurm.sh start DIR` (ALLOT_SLURM_NODES=16, "
                  "untyped GPUs)")
      ->required();
  command.add_option("--allotd", c.allotd, "the allotd binary (default: the one of this build)");
  command.add_option("--jobs", c.jobs, "jobs per side")->check(CLI::Range(1, 1'000'000));
  command.add_flag("--commands", c.commands,
                   "a side with allotd's jobs through Slurm's commands (--slurm-transport "
                   "commands; allotOnSlurm goes through libslurm)");
  command.add_flag("--rest", c.rest,
                   "a third side: allotd's jobs through slurmrestd (ALLOT_SLURM_REST=1)");
  command
      .add_option("--rest-poll", c.rest_poll,
                  "how allotd polls the jobs on the slurmrestd side: squeue or rest (GET /jobs)")
      ->check(CLI::IsMember({"squeue", "rest"}));
  command
      .add_option("--slurm-submit", c.slurm_submit,
                  "allotd's --slurm-submit: batch (sbatch) or allocation (salloc + srun, started "
                  "inside the request)")
      ->check(CLI::IsMember({"batch", "allocation"}));
  command.add_option("--nodes", c.nodes, "Slurm's nodes node1..nodeN, 8 GPUs each")
      ->check(CLI::Range(1, 10'000));
  command.add_option("--job-seconds", c.job_seconds, "what each job sleeps (lend-borrow: 5)")
      ->check(CLI::Range(0.0, 3600.0));
  command
      .add_option("--scenario", c.scenario,
                  "throughput (the same jobs through Slurm alone and allot) or lend-borrow "
                  "(two teams each guaranteed half: allot, GrpTRES, QoS preemption; JSON)")
      ->check(CLI::IsMember({"throughput", "lend-borrow"}));
  command.add_option("--job-gpus", c.lend_borrow.job_gpus, "lend-borrow: GPUs per job")
      ->check(CLI::Range(1, 8));
  command
      .add_option("--stream-seconds", c.lend_borrow.stream_seconds,
                  "lend-borrow: how long the teams submit (the window measured)")
      ->check(CLI::Range(1.0, 3600.0));
  command
      .add_option("--return-at", c.lend_borrow.return_at,
                  "lend-borrow: when team B returns (seconds)")
      ->check(CLI::Range(0.0, 3600.0));
  command
      .add_option("--ways", c.lend_borrow.ways,
                  "lend-borrow: which ways run, in order (allot, grptres, qos; default all)")
      ->check(CLI::IsMember({"allot", "grptres", "qos"}))
      ->delimiter(',');
  command
      .add_option("--load", c.lend_borrow.load,
                  "lend-borrow: each stream's rate over what its share finishes")
      ->check(CLI::Range(0.01, 100.0));
}

}  // namespace

int main(int argc, char** argv) {
  // `micro` goes to Google Benchmark untouched: "micro" takes argv[0]'s place,
  // so that it sees its own flags only.
  if (argc >= 2 && std::string_view(argv[1]) == "micro") {
    return allot::bench::run_micro(argc - 1, argv + 1);
  }
  CLI::App app{
      "allot-bench: the scale test, the REST API of a real allotd, a scenario replayed through "
      "allotd, microbenchmarks"};
  app.require_subcommand(1);
  allot::bench::ScaleConfig scale;
  allot::bench::ApiConfig api;
  api.allotd = default_allotd();
  std::string scale_output = "table";
  std::string api_output = "table";
  allot::bench::ReplayConfig replay;
  std::string replay_output = "table";
  allot::bench::ConnectionsConfig connections;
  connections.allotd = api.allotd;
  std::string connections_output = "table";
  allot::bench::MixedConfig mixed;
  mixed.allotd = api.allotd;
  std::string mixed_output = "table";
  allot::bench::ChaosConfig chaos;
  chaos.allotd = api.allotd;
  std::string chaos_output = "table";
  CLI::App* scale_command = app.add_subcommand("scale", "the scale test, against its goals");
  add_scale_flags(*scale_command, scale, scale_output);
  CLI::App* api_command = app.add_subcommand("api", "a real allotd through its REST API");
  add_api_flags(*api_command, api, api_output);
  CLI::App* replay_command = app.add_subcommand(
      "replay", "a scenario through a running allotd in real time, next to its simulation");
  add_replay_flags(*replay_command, replay, replay_output);
  CLI::App* connections_command = app.add_subcommand(
      "connections", "/healthz latency while idle and slowloris clients hold connections");
  add_connections_flags(*connections_command, connections, connections_output);
  CLI::App* mixed_command =
      app.add_subcommand("mixed", "many clients, every kind of request, real pods, for a time");
  add_mixed_flags(*mixed_command, mixed, mixed_output);
  CLI::App* chaos_command = app.add_subcommand(
      "chaos", "mixed load while allotd is killed with SIGKILL and nodes fail; invariants checked");
  add_chaos_flags(*chaos_command, chaos, chaos_output);
  allot::bench::ScimBenchConfig scim;
  scim.allotd = api.allotd;
  std::string scim_output = "table";
  CLI::App* scim_command = app.add_subcommand(
      "scim",
      "SCIM provisioning of a real allotd: 10,000 users, 1,000 groups, a 5,000-member PATCH");
  add_scim_flags(*scim_command, scim, scim_output);
  allot::bench::SlurmBenchConfig slurm;
  slurm.allotd = api.allotd;
  std::string slurm_output = "table";
  CLI::App* slurm_command = app.add_subcommand(
      "slurm", "the same jobs through Slurm alone and through allotd on Slurm, side by side");
  add_slurm_flags(*slurm_command, slurm, slurm_output);
  app.add_subcommand("micro", "Google Benchmark microbenchmarks (e.g. --benchmark_filter=quota)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;  // 2: a usage error, as in allot
  }
  if (scale_command->parsed()) return run_scale(scale, scale_output);
  if (replay_command->parsed()) return run_replay(replay, replay_output);
  if (connections_command->parsed()) return run_connections(connections, connections_output);
  if (mixed_command->parsed()) return run_mixed(mixed, mixed_output);
  if (chaos_command->parsed()) return run_chaos(chaos, chaos_output);
  if (scim_command->parsed()) return run_scim(scim, scim_output);
  if (slurm_command->parsed()) {
    return run_slurm(slurm, slurm_output, slurm_command->get_option("--job-seconds")->count() > 0);
  }
  return run_api(api, api_output);
}
