#include "bench/api_report.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace allot::bench {
namespace {

// Quoted by the issue; allot-bench does not run Slurm.
constexpr const char* kSlurmLabel = "reference, not measured in this run";
constexpr const char* kSlurmVersion = "Slurm 22.05";
constexpr int64_t kSlurmSbatchJobs = 2'000;
constexpr double kSlurmSbatchPerS = 74;  // sequential sbatch submissions
constexpr int64_t kSlurmEndToEndJobs = 2'000;
constexpr double kSlurmEndToEndLowPerS = 12;  // trivial jobs, submit to completion
constexpr double kSlurmEndToEndHighPerS = 15;
constexpr int64_t kSlurmEmulatedNodes = 4;

double round_to_3(double v) { return std::round(v * 1000) / 1000; }

std::string target_of(const Goal& g) {
  return g.op + " " + std::to_string(static_cast<int64_t>(g.goal));
}

}  // namespace

std::vector<Goal> goals_of(const ApiReport& r) {
  return {
      {"durable_submits_per_s", ">=", 5'000, r.durable_submits_per_s},
      {"list_10k_p99_ms", "<=", 50, r.list_10k_p99_ms},
      {"restart_100k_s", "<=", 2, r.restart_100k_s},
  };
}

void print_json(const ApiReport& r, std::FILE* out) {
  nlohmann::ordered_json j;
  const ApiConfig& c = r.config;
  j["config"] = {{"allotd", c.allotd},
                 {"clients", c.clients},
                 {"submits", c.submits},
                 {"list_runs", c.list_runs},
                 {"restart_workloads", c.restart_workloads},
                 {"apply_batch", c.apply_batch},
                 {"allotd_threads", c.allotd_threads}};
  if (!r.error.empty()) j["error"] = r.error;
  j["durable_submits_per_s"] = round_to_3(r.durable_submits_per_s);
  j["submits_ok"] = r.submits_ok;
  j["submit_errors"] = r.submit_errors;
  j["submit_wall_s"] = round_to_3(r.submit_wall_s);
  j["submit_p50_ms"] = round_to_3(r.submit_p50_ms);
  j["submit_p99_ms"] = round_to_3(r.submit_p99_ms);
  j["submit_max_ms"] = round_to_3(r.submit_max_ms);
  j["submit_allotd_cpu_ms"] = round_to_3(r.submit_allotd_cpu_ms);
  j["submit_loop_cpu_share"] = round_to_3(r.submit_loop_cpu_share);
  j["submit_client_cpu_ms"] = round_to_3(r.submit_client_cpu_ms);
  j["list_stored"] = r.list_stored;
  j["list_items"] = r.list_items;
  j["list_bytes"] = r.list_bytes;
  j["list_10k_p50_ms"] = round_to_3(r.list_10k_p50_ms);
  j["list_10k_p99_ms"] = round_to_3(r.list_10k_p99_ms);
  j["list_10k_max_ms"] = round_to_3(r.list_10k_max_ms);
  j["list_allotd_cpu_ms"] = round_to_3(r.list_allotd_cpu_ms);
  j["filled_by_apply"] = r.filled;
  j["fill_s"] = round_to_3(r.fill_s);
  j["fill_workloads_per_s"] = round_to_3(r.fill_per_s);
  j["restart_stored"] = r.restart_stored;
  j["stop_s"] = round_to_3(r.stop_s);
  j["restart_100k_s"] = round_to_3(r.restart_100k_s);
  j["restart_first_list_s"] = round_to_3(r.restart_first_list_s);
  j["restart_allotd_cpu_s"] = round_to_3(r.restart_allotd_cpu_s);
  j["rss_after_restart_mib"] = round_to_3(r.rss_after_restart_mib);
  j["listed_after_restart"] = r.listed_after_restart;
  nlohmann::ordered_json goals = nlohmann::ordered_json::object();
  for (const Goal& g : goals_of(r)) {
    goals[g.name] = {
        {"goal", target_of(g)}, {"measured", round_to_3(g.measured)}, {"met", g.met()}};
  }
  j["goals"] = goals;
  j["slurm_reference"] = {
      {"label", kSlurmLabel},
      {"version", kSlurmVersion},
      {"sequential_sbatch", {{"jobs", kSlurmSbatchJobs}, {"submits_per_s", kSlurmSbatchPerS}}},
      {"trivial_jobs_end_to_end",
       {{"jobs", kSlurmEndToEndJobs},
        {"jobs_per_s_low", kSlurmEndToEndLowPerS},
        {"jobs_per_s_high", kSlurmEndToEndHighPerS},
        {"emulated_nodes", kSlurmEmulatedNodes}}}};
  std::fprintf(out, "%s\n", j.dump(2).c_str());
}

void print_table(const ApiReport& r, std::FILE* out) {
  const ApiConfig& c = r.config;
  std::fprintf(out, "allotd API bench: %s\n", c.allotd.c_str());
  std::fprintf(out, "%d clients, %d submits, %d list runs, %d workloads for the restart\n\n",
               c.clients, c.submits, c.list_runs, c.restart_workloads);
  if (!r.error.empty()) std::fprintf(out, "ERROR: %s\n\n", r.error.c_str());
  std::fprintf(out, "%-30s %14s\n", "figure", "measured");
  auto row = [&](const char* name, double value) {
    std::fprintf(out, "%-30s %14.3f\n", name, value);
  };
  row("durable_submits_per_s", r.durable_submits_per_s);
  row("submits_ok", static_cast<double>(r.submits_ok));
  row("submit_errors", static_cast<double>(r.submit_errors));
  row("submit_p50_ms", r.submit_p50_ms);
  row("submit_p99_ms", r.submit_p99_ms);
  row("submit_max_ms", r.submit_max_ms);
  row("submit_allotd_cpu_ms", r.submit_allotd_cpu_ms);
  row("submit_loop_cpu_share", r.submit_loop_cpu_share);
  row("submit_client_cpu_ms", r.submit_client_cpu_ms);
  row("list_stored", static_cast<double>(r.list_stored));
  row("list_bytes", static_cast<double>(r.list_bytes));
  row("list_10k_p50_ms", r.list_10k_p50_ms);
  row("list_10k_p99_ms", r.list_10k_p99_ms);
  row("list_10k_max_ms", r.list_10k_max_ms);
  row("list_allotd_cpu_ms", r.list_allotd_cpu_ms);
  row("fill_workloads_per_s", r.fill_per_s);
  row("restart_stored", static_cast<double>(r.restart_stored));
  row("stop_s", r.stop_s);
  row("restart_100k_s", r.restart_100k_s);
  row("restart_first_list_s", r.restart_first_list_s);
  row("restart_allotd_cpu_s", r.restart_allotd_cpu_s);
  row("rss_after_restart_mib", r.rss_after_restart_mib);
  row("listed_after_restart", static_cast<double>(r.listed_after_restart));
  std::fprintf(out, "\n%-30s %14s %14s %6s\n", "goal", "target", "measured", "met");
  for (const Goal& g : goals_of(r)) {
    std::fprintf(out, "%-30s %14s %14.3f %6s\n", g.name.c_str(), target_of(g).c_str(), g.measured,
                 g.met() ? "yes" : "NO");
  }
  std::fprintf(out, "\n%s (%s):\n", kSlurmVersion, kSlurmLabel);
  std::fprintf(out, "  %lld sequential sbatch submissions at ~%.0f/s\n",
               static_cast<long long>(kSlurmSbatchJobs), kSlurmSbatchPerS);
  std::fprintf(out, "  %lld trivial jobs end to end at %.0f-%.0f/s on %lld emulated nodes\n",
               static_cast<long long>(kSlurmEndToEndJobs), kSlurmEndToEndLowPerS,
               kSlurmEndToEndHighPerS, static_cast<long long>(kSlurmEmulatedNodes));
}

}  // namespace allot::bench
