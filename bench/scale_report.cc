#include "bench/scale_report.h"

#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace allot::bench {
namespace {

constexpr const char* kSlurmNote =
    "The issue reports Slurm's main scheduler passing over 3,000 pending jobs in 3-7 ms on this "
    "machine (without quotas); pass_3000_ms is one allot plan() over 3,000 pending workloads of "
    "the same mix on this cluster, with quotas, placement and explanations.";

std::string digest_hex(uint64_t digest) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest));
  return text;
}

double round3(double v) { return std::round(v * 1000) / 1000; }

nlohmann::ordered_json rounded(const std::vector<double>& values) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (double v : values) out.push_back(round3(v));
  return out;
}

nlohmann::ordered_json to_json(const PlanSummary& s) {
  return {{"admissions", s.admissions},
          {"preemptions", s.preemptions},
          {"reservations", s.reservations},
          {"pending_reasons", s.pending_reasons},
          {"preemption_verdicts", s.preemption_verdicts},
          {"digest", digest_hex(s.digest)}};
}

void print_summary(const char* title, const PlanSummary& s, std::FILE* out) {
  std::fprintf(out, "%s: %lld admissions, %lld preemptions, %lld reservations\n", title,
               static_cast<long long>(s.admissions), static_cast<long long>(s.preemptions),
               static_cast<long long>(s.reservations));
  std::fprintf(out, "  pending by reason:");
  for (const auto& [name, count] : s.pending_reasons) {
    std::fprintf(out, " %s=%lld", name.c_str(), static_cast<long long>(count));
  }
  std::fprintf(out, "\n  pending by preemption verdict:");
  for (const auto& [name, count] : s.preemption_verdicts) {
    std::fprintf(out, " %s=%lld", name.c_str(), static_cast<long long>(count));
  }
  std::fprintf(out, "\n");
}

}  // namespace

std::vector<Goal> goals_of(const ScaleReport& r) {
  return {
      {"admissions_per_s", ">=", 50'000, r.admissions_per_s},
      {"full_pass_ms", "<=", 250, r.full_pass_ms},
      {"preemption_p99_ms", "<=", 5, r.preemption_p99_ms},
      {"bytes_per_pending", "<=", 2'048, r.bytes_per_pending},
  };
}

void print_json(const ScaleReport& r, std::FILE* out) {
  nlohmann::ordered_json j;
  const ScaleConfig& c = r.config;
  j["config"] = {{"seed", c.seed},
                 {"nodes", c.nodes},
                 {"gpus", r.total_gpus},
                 {"flavors", kFlavorCount},
                 {"teams", c.teams},
                 {"urgent_teams", c.urgent_teams},
                 {"pending", c.pending},
                 {"runs", c.runs},
                 {"preemption_runs", c.preemption_runs},
                 {"fair_sharing", c.fair_sharing},
                 {"consolidation", c.consolidation}};
  j["setup_ms"] = round3(r.setup_ms);
  j["full_pass_ms"] = round3(r.full_pass_ms);
  j["full_pass_cpu_ms"] = round3(r.full_pass_cpu_ms);
  j["full_pass_runs_ms"] = rounded(r.full_pass_runs_ms);
  j["admissions_first_pass"] = r.admissions_first_pass;
  j["admitted_gpus_first_pass"] = r.admitted_gpus_first_pass;
  j["admissions_per_s"] = round3(r.admissions_per_s);
  j["steady_pass_ms"] = round3(r.steady_pass_ms);
  j["steady_pass_cpu_ms"] = round3(r.steady_pass_cpu_ms);
  j["steady_pass_runs_ms"] = rounded(r.steady_pass_runs_ms);
  j["steady_kept_pass_ms"] = round3(r.steady_kept_pass_ms);
  j["steady_kept_pass_cpu_ms"] = round3(r.steady_kept_pass_cpu_ms);
  j["steady_kept_pass_runs_ms"] = rounded(r.steady_kept_pass_runs_ms);
  j["steady_kept_pass_identical"] = r.steady_kept_pass_identical;
  j["steady_admitted"] = r.steady_admitted;
  j["steady_pending"] = r.steady_pending;
  j["steady_admissions"] = r.steady_admissions;
  j["steady_preemptions"] = r.steady_preemptions;
  j["preemption_runs"] = r.preemption_runs;
  j["preemption_p50_ms"] = round3(r.preemption_p50_ms);
  j["preemption_p99_ms"] = round3(r.preemption_p99_ms);
  j["preemption_max_ms"] = round3(r.preemption_max_ms);
  j["preemption_p99_cpu_ms"] = round3(r.preemption_p99_cpu_ms);
  j["preemption_runs_without_victims"] = r.preemption_runs_without_victims;
  j["preemption_victims_mean"] = round3(r.preemption_victims_mean);
  j["preemption_plans_digest"] = digest_hex(r.preemption_digest);
  j["snapshot_bytes_per_pending"] = round3(r.snapshot_bytes_per_pending);
  j["plan_peak_bytes_per_pending"] = round3(r.plan_peak_bytes_per_pending);
  j["bytes_per_pending"] = round3(r.bytes_per_pending);
  j["pass_3000_ms"] = round3(r.pass_3000_ms);
  j["pass_3000_cpu_ms"] = round3(r.pass_3000_cpu_ms);
  j["slurm_comparison_note"] = kSlurmNote;
  j["first_pass_plan"] = to_json(r.first_pass);
  j["steady_pass_plan"] = to_json(r.steady);
  nlohmann::ordered_json goals = nlohmann::ordered_json::object();
  for (const Goal& g : goals_of(r)) {
    goals[g.name] = {{"goal", g.op + " " + std::to_string(static_cast<int64_t>(g.goal))},
                     {"measured", round3(g.measured)},
                     {"met", g.met()}};
  }
  j["goals"] = goals;
  std::fprintf(out, "%s\n", j.dump(2).c_str());
}

void print_table(const ScaleReport& r, std::FILE* out) {
  const ScaleConfig& c = r.config;
  std::fprintf(out, "allot scale test: %d nodes (%lld GPUs, %d flavors), %d teams (+%d urgent), ",
               c.nodes, static_cast<long long>(r.total_gpus), kFlavorCount, c.teams,
               c.urgent_teams);
  std::fprintf(out, "%d pending, seed %llu\n\n", c.pending,
               static_cast<unsigned long long>(c.seed));
  std::fprintf(out, "%-30s %14s\n", "figure", "measured");
  auto row = [&](const char* name, double value) {
    std::fprintf(out, "%-30s %14.3f\n", name, value);
  };
  row("full_pass_ms (median)", r.full_pass_ms);
  row("full_pass_cpu_ms (median)", r.full_pass_cpu_ms);
  row("admissions_first_pass", static_cast<double>(r.admissions_first_pass));
  row("admitted_gpus_first_pass", static_cast<double>(r.admitted_gpus_first_pass));
  row("admissions_per_s", r.admissions_per_s);
  row("steady_pass_ms (median)", r.steady_pass_ms);
  row("steady_pass_cpu_ms (median)", r.steady_pass_cpu_ms);
  row("steady_kept_pass_ms (median)", r.steady_kept_pass_ms);
  row("steady_admitted", static_cast<double>(r.steady_admitted));
  row("steady_pending", static_cast<double>(r.steady_pending));
  row("steady_admissions", static_cast<double>(r.steady_admissions));
  row("steady_preemptions", static_cast<double>(r.steady_preemptions));
  row("preemption_p50_ms", r.preemption_p50_ms);
  row("preemption_p99_ms", r.preemption_p99_ms);
  row("preemption_max_ms", r.preemption_max_ms);
  row("preemption_p99_cpu_ms", r.preemption_p99_cpu_ms);
  row("preemption_victims_mean", r.preemption_victims_mean);
  row("preemption_runs_w/o_victims", r.preemption_runs_without_victims);
  row("snapshot_bytes_per_pending", r.snapshot_bytes_per_pending);
  row("plan_peak_bytes_per_pending", r.plan_peak_bytes_per_pending);
  row("bytes_per_pending", r.bytes_per_pending);
  row("pass_3000_ms (median)", r.pass_3000_ms);
  row("pass_3000_cpu_ms (median)", r.pass_3000_cpu_ms);
  std::fprintf(out, "\n%-30s %14s %14s %6s\n", "goal", "target", "measured", "met");
  for (const Goal& g : goals_of(r)) {
    const std::string target = g.op + " " + std::to_string(static_cast<int64_t>(g.goal));
    std::fprintf(out, "%-30s %14s %14.3f %6s\n", g.name.c_str(), target.c_str(), g.measured,
                 g.met() ? "yes" : "NO");
  }
  std::fprintf(out, "\n");
  print_summary("first pass plan", r.first_pass, out);
  print_summary("steady pass plan", r.steady, out);
  std::fprintf(out, "\n%s\n", kSlurmNote);
  std::fprintf(out,
               "Goals hold wall-clock (steady_clock) figures; *_cpu_ms are thread CPU time.\n");
}

}  // namespace allot::bench
