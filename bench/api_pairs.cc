#include "bench/api_pairs.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <nlohmann/json.hpp>

#include "bench/api_setup.h"
#include "bench/http_load_client.h"
#include "bench/percentile.h"
#include "bench/process_stats.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

constexpr double kGoal = 0.10;  // the issue's: the audit log costs at most 10%

// One allotd of the pair, with a keep-alive connection per client.
struct Side {
  std::string audit;  // "on" or "off"
  std::unique_ptr<tools::AllotdChild> allotd;
  std::vector<std::unique_ptr<HttpLoadClient>> clients;
  int32_t next_name = 0;
};

class PairedRun {
 public:
  PairedRun(const ApiConfig& config, int32_t slices, AuditPairsReport& report, std::FILE* log,
            const std::filesystem::path& work)
      : config_(config), slices_(slices), report_(report), log_(log), work_(work) {
    on_.audit = "on";
    off_.audit = "off";
  }
  ~PairedRun() {
    for (Side* side : {&on_, &off_}) {
      if (side->allotd) side->allotd->stop(kAllotdStopLimit);
    }
  }
  PairedRun(const PairedRun&) = delete;
  PairedRun& operator=(const PairedRun&) = delete;

  std::string run() {
    for (Side* side : {&on_, &off_}) {
      if (std::string error = start(*side); !error.empty()) return error;
    }
    const int32_t per_slice = std::max(1, config_.submits / std::max(1, slices_));
    report_.slice_submits = per_slice;
    std::fprintf(log_, "warm-up pair of %d submits each\n", std::min(per_slice, 1'000));
    for (Side* side : {&on_, &off_}) {
      AuditSlice ignored;
      if (std::string error = slice(*side, std::min(per_slice, 1'000), ignored); !error.empty())
        return error;
    }
    for (int32_t p = 0; p < slices_; ++p) {
      AuditPair pair;
      pair.on_first = p % 2 == 0;
      Side& first = pair.on_first ? on_ : off_;
      Side& second = pair.on_first ? off_ : on_;
      if (std::string error = slice(first, per_slice, pair.on_first ? pair.on : pair.off);
          !error.empty())
        return error;
      if (std::string error = slice(second, per_slice, pair.on_first ? pair.off : pair.on);
          !error.empty())
        return error;
      std::fprintf(log_, "pair %d (%s first): on %.0f/s %.0f us, off %.0f/s %.0f us: cost %.1f%%\n",
                   p + 1, pair.on_first ? "on" : "off", pair.on.submits_per_s(),
                   pair.on.allotd_cpu_us(), pair.off.submits_per_s(), pair.off.allotd_cpu_us(),
                   throughput_cost(pair) * 100);
      report_.pairs.push_back(pair);
    }
    report_.summary = summarize_audit_pairs(report_.pairs);
    return {};
  }

  [[nodiscard]] std::vector<std::string> data_dirs() const {
    return {(work_ / "data-on").string(), (work_ / "data-off").string()};
  }

 private:
  std::string start(Side& side) {
    tools::AllotdLaunch launch{config_.allotd,
                               (work_ / ("data-" + side.audit)).string(),
                               "127.0.0.1:0",
                               (work_ / ("allotd-" + side.audit + ".err")).string(),
                               {"--no-cgroups", "--threads", std::to_string(config_.allotd_threads),
                                "--audit", side.audit, "--metering", config_.metering}};
    side.allotd = std::make_unique<tools::AllotdChild>(std::move(launch));
    if (std::string error = side.allotd->start(kAllotdStartLimit); !error.empty()) {
      return "allotd (audit " + side.audit + ") did not start: " + error;
    }
    const auto http = api_bench_client(side.allotd->port(), side.allotd->admin_token());
    const httplib::Result res = http->Post("/api/v1/apply", api_bench_policy(), "application/yaml");
    if (!res || res->status != 200) {
      return "apply of the policy (audit " + side.audit + ") failed: " + describe(res);
    }
    for (int32_t c = 0; c < std::max(1, config_.clients); ++c) {
      side.clients.push_back(
          std::make_unique<HttpLoadClient>(side.allotd->port(), 120, side.allotd->admin_token()));
    }
    std::fprintf(log_, "allotd %d (audit %s) on port %d\n", side.allotd->pid(), side.audit.c_str(),
                 side.allotd->port());
    return {};
  }

  // `count` submits to `side` from every client at once.
  std::string slice(Side& side, int32_t count, AuditSlice& figures) {
    const double cpu_before = cpu_time(side.allotd->pid()).total_s;
    const SubmitBurst burst = submit_burst(side.clients, side.next_name, count);
    figures.allotd_cpu_s = cpu_time(side.allotd->pid()).total_s - cpu_before;
    side.next_name += count;
    figures.wall_s = burst.wall_s;
    if (burst.errors > 0) return "a submit (audit " + side.audit + ") failed: " + burst.first_error;
    figures.submits = static_cast<double>(burst.latencies_ms.size());
    figures.p50_ms = percentile(burst.latencies_ms, 50);
    return {};
  }

  const ApiConfig& config_;
  int32_t slices_;
  AuditPairsReport& report_;
  std::FILE* log_;
  std::filesystem::path work_;
  Side on_;
  Side off_;
};

double round_to(double v, double scale) { return std::round(v * scale) / scale; }

nlohmann::ordered_json slice_json(const AuditSlice& s) {
  return {{"submits_per_s", round_to(s.submits_per_s(), 1)},
          {"allotd_cpu_us_per_submit", round_to(s.allotd_cpu_us(), 10)},
          {"p50_ms", round_to(s.p50_ms, 1000)},
          {"wall_s", round_to(s.wall_s, 1000)}};
}

nlohmann::ordered_json spread_json(const Spread& s) {
  return {{"min", round_to(s.min, 10000)},
          {"median", round_to(s.median, 10000)},
          {"max", round_to(s.max, 10000)}};
}

}  // namespace

AuditPairsReport run_audit_pairs(const ApiConfig& config, std::FILE* log) {
  const int32_t slices = std::max(1, config.slices);
  AuditPairsReport report;
  report.config = config;
  report.slices = slices;
  const WorkFolder work;
  if (work.path().empty()) {
    report.error = "cannot create a folder under the temporary directory";
    return report;
  }
  std::vector<std::string> data_dirs;
  {
    PairedRun run(config, slices, report, log, work.path());
    data_dirs = run.data_dirs();
    report.error = run.run();
  }
  for (const std::string& dir : data_dirs) tools::remove_host_accounts(config.allotd, dir, log);
  return report;
}

void print_json(const AuditPairsReport& r, std::FILE* out) {
  nlohmann::ordered_json j;
  j["config"] = {{"allotd", r.config.allotd},
                 {"clients", r.config.clients},
                 {"slices", r.slices},
                 {"submits_per_slice", r.slice_submits},
                 {"allotd_threads", r.config.allotd_threads},
                 {"metering", r.config.metering}};
  if (!r.error.empty()) j["error"] = r.error;
  const AuditPairSummary& s = r.summary;
  j["pairs"] = s.pairs;
  j["throughput_cost"] = spread_json(s.throughput_cost);
  j["cpu_overhead"] = spread_json(s.cpu_overhead);
  j["pooled"] = {{"on_submits_per_s", round_to(s.pooled_on_per_s, 1)},
                 {"off_submits_per_s", round_to(s.pooled_off_per_s, 1)},
                 {"throughput_cost", round_to(s.pooled_throughput_cost, 10000)},
                 {"on_allotd_cpu_us_per_submit", round_to(s.pooled_on_cpu_us, 10)},
                 {"off_allotd_cpu_us_per_submit", round_to(s.pooled_off_cpu_us, 10)},
                 {"cpu_overhead", round_to(s.pooled_cpu_overhead, 10000)}};
  j["p50_ms_median"] = {{"on", round_to(s.median_on_p50_ms, 1000)},
                        {"off", round_to(s.median_off_p50_ms, 1000)}};
  j["goal"] = {{"audit_throughput_cost", "<= 0.10, the median of the pairs"},
               {"measured", round_to(s.throughput_cost.median, 10000)},
               {"met", r.error.empty() && s.pairs > 0 && s.throughput_cost.median <= kGoal}};
  nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
  for (const AuditPair& pair : r.pairs) {
    pairs.push_back({{"first", pair.on_first ? "on" : "off"},
                     {"on", slice_json(pair.on)},
                     {"off", slice_json(pair.off)},
                     {"throughput_cost", round_to(throughput_cost(pair), 10000)},
                     {"cpu_overhead", round_to(cpu_overhead(pair), 10000)}});
  }
  j["each_pair"] = pairs;
  std::fprintf(out, "%s\n", j.dump(2).c_str());
}

void print_table(const AuditPairsReport& r, std::FILE* out) {
  std::fprintf(out, "audit log on against off, in one run: %s\n", r.config.allotd.c_str());
  std::fprintf(out, "%d clients, %d pairs of %d submits a side\n\n", r.config.clients, r.slices,
               r.slice_submits);
  if (!r.error.empty()) std::fprintf(out, "ERROR: %s\n\n", r.error.c_str());
  const AuditPairSummary& s = r.summary;
  std::fprintf(out, "%-34s %10s %10s %10s\n", "per pair", "min", "median", "max");
  std::fprintf(out, "%-34s %9.1f%% %9.1f%% %9.1f%%\n", "throughput cost (1 - on/off)",
               s.throughput_cost.min * 100, s.throughput_cost.median * 100,
               s.throughput_cost.max * 100);
  std::fprintf(out, "%-34s %9.1f%% %9.1f%% %9.1f%%\n", "allotd CPU a submit (on/off - 1)",
               s.cpu_overhead.min * 100, s.cpu_overhead.median * 100, s.cpu_overhead.max * 100);
  std::fprintf(out,
               "\npooled: on %.0f/s, off %.0f/s (cost %.1f%%); CPU %.1f against %.1f us a "
               "submit (%+.1f%%)\n",
               s.pooled_on_per_s, s.pooled_off_per_s, s.pooled_throughput_cost * 100,
               s.pooled_on_cpu_us, s.pooled_off_cpu_us, s.pooled_cpu_overhead * 100);
  std::fprintf(
      out, "goal: throughput cost <= 10%% (median of the pairs): %s\n",
      r.error.empty() && s.pairs > 0 && s.throughput_cost.median <= kGoal ? "met" : "NOT met");
}

}  // namespace allot::bench
