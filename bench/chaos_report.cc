// chaos_report_text() and chaos_report_json() of bench/chaos_bench.h.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "bench/chaos_bench.h"

namespace allot::bench {
namespace {

// The violations a report shows; the count is always complete.
constexpr size_t kShownViolations = 50;

}  // namespace

std::string chaos_report_json(const ChaosReport& r) {
  nlohmann::json rounds = nlohmann::json::array();
  for (const ChaosRound& round : r.rounds) {
    const ChaosCheckResult& c = round.check;
    rounds.push_back({{"name", round.name},
                      {"at_s", round.at_s},
                      {"restart_s", round.restart_s},
                      {"check_s", round.check_s},
                      {"submits_checked", c.submits_checked},
                      {"cancels_checked", c.cancels_checked},
                      {"deletes_checked", c.deletes_checked},
                      {"workloads_stored", c.workloads_stored},
                      {"gpus_held", c.gpus_held},
                      {"pods_alive", c.pods_alive},
                      {"violations", c.violations.size()},
                      {"error", c.error}});
  }
  const auto shown = static_cast<std::ptrdiff_t>(std::min(r.violations.size(), kShownViolations));
  const nlohmann::json out = {
      {"clients", r.config.clients},
      {"seconds", r.config.seconds},
      {"seed", r.config.seed},
      {"passed", r.passed()},
      {"error", r.error},
      {"work_dir", r.work_dir},
      {"wall_s", r.wall_s},
      {"kills", r.kills},
      {"node_failures", r.node_failures},
      {"requests", r.requests},
      {"unanswered", r.unanswered},
      {"not_sent", r.not_sent},
      {"errors", r.errors},
      {"first_error", r.first_error},
      {"acked",
       {{"submits", r.acked_submits}, {"cancels", r.acked_cancels}, {"deletes", r.acked_deletes}}},
      {"unknown_writes", r.unknown_writes},
      {"rounds", rounds},
      {"violation_count", r.violations.size()},
      {"violations", std::vector<std::string>(r.violations.begin(), r.violations.begin() + shown)}};
  return out.dump(2) + "\n";
}

std::string chaos_report_text(const ChaosReport& r) {
  char line[512];
  std::string out;
  std::snprintf(line, sizeof(line), "%-8s %8s %9s %8s %8s %8s %8s %6s %6s %10s\n", "round", "at s",
                "restart s", "submits", "cancels", "deletes", "stored", "GPUs", "pods",
                "violations");
  out += line;
  for (const ChaosRound& round : r.rounds) {
    const ChaosCheckResult& c = round.check;
    std::snprintf(
        line, sizeof(line), "%-8s %8.1f %9.2f %8lld %8lld %8lld %8lld %6lld %6lld %10zu\n",
        round.name.c_str(), round.at_s, round.restart_s, static_cast<long long>(c.submits_checked),
        static_cast<long long>(c.cancels_checked), static_cast<long long>(c.deletes_checked),
        static_cast<long long>(c.workloads_stored), static_cast<long long>(c.gpus_held),
        static_cast<long long>(c.pods_alive), c.violations.size());
    out += line;
  }
  std::snprintf(line, sizeof(line),
                "%d clients, %.1f s, %d kills, %d node failures; %lld requests, %lld sent without "
                "an answer, %lld not sent (allotd down), %lld undocumented answers\n"
                "acknowledged: %lld submits, %lld cancels, %lld deletes; %lld writes unknown\n",
                r.config.clients, r.wall_s, r.kills, r.node_failures,
                static_cast<long long>(r.requests), static_cast<long long>(r.unanswered),
                static_cast<long long>(r.not_sent), static_cast<long long>(r.errors),
                static_cast<long long>(r.acked_submits), static_cast<long long>(r.acked_cancels),
                static_cast<long long>(r.acked_deletes), static_cast<long long>(r.unknown_writes));
  out += line;
  if (!r.first_error.empty()) out += "first undocumented answer: " + r.first_error + "\n";
  out += std::to_string(r.violations.size()) + " violations\n";
  for (size_t i = 0; i < std::min(r.violations.size(), kShownViolations); ++i) {
    out += "  " + r.violations[i] + "\n";
  }
  if (!r.error.empty()) out += "error: " + r.error + "\n";
  if (!r.work_dir.empty()) out += "allotd's folder (data, allotd.err) kept: " + r.work_dir + "\n";
  out += r.passed() ? "PASSED\n" : "FAILED\n";
  return out;
}

}  // namespace allot::bench
