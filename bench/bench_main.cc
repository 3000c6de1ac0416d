// allot-bench: `scale` runs the scale test and prints its figures
// against the goals; `micro` runs the Google Benchmark microbenchmarks.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "bench/micro_bench.h"
#include "bench/scale_bench.h"
#include "bench/scale_report.h"

namespace {

constexpr const char* kUsage =
    "usage: allot-bench scale [-o json|table] [--seed N] [--pending N] [--nodes N] [--teams N]\n"
    "                         [--urgent-teams N] [--runs N] [--preemption-runs N]\n"
    "       allot-bench micro [Google Benchmark flags, e.g. --benchmark_filter=Quota]\n";

int run_scale_command(int argc, char** argv) {
  allot::bench::ScaleConfig config;
  std::string output = "table";
  CLI::App app{"The scale test: 10,000 nodes, 1,000 teams, 100,000 pending workloads."};
  app.add_option("-o,--output", output, "json or table")
      ->check(CLI::IsMember({"json", "table"}));
  app.add_option("--seed", config.seed, "seed of the workload generator");
  app.add_option("--pending", config.pending, "pending workloads")->check(CLI::Range(1, 10'000'000));
  app.add_option("--nodes", config.nodes, "nodes (8 GPUs each)")->check(CLI::Range(4, 1'000'000));
  app.add_option("--teams", config.teams, "regular teams")->check(CLI::Range(1, 100'000));
  app.add_option("--urgent-teams", config.urgent_teams, "teams submitting the urgent gang")
      ->check(CLI::Range(1, 1'000));
  app.add_option("--runs", config.runs, "plan() runs per median")->check(CLI::Range(1, 1'000));
  app.add_option("--preemption-runs", config.preemption_runs, "urgent gangs timed")
      ->check(CLI::Range(1, 100'000));
  CLI11_PARSE(app, argc, argv);
  const allot::bench::ScaleReport report = allot::bench::run_scale(config, stderr);
  if (output == "json") {
    allot::bench::print_json(report, stdout);
  } else {
    allot::bench::print_table(report, stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string_view command = argv[1];
  // The subcommand takes argv[0]'s place, so that each parser sees its own flags only.
  std::vector<char*> rest(argv + 1, argv + argc);
  rest.push_back(nullptr);
  const int rest_count = argc - 1;
  if (command == "scale") return run_scale_command(rest_count, rest.data());
  if (command == "micro") return allot::bench::run_micro(rest_count, rest.data());
  std::fputs(kUsage, command == "-h" || command == "--help" ? stdout : stderr);
  return command == "-h" || command == "--help" ? 0 : 2;
}
