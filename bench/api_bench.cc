#include "bench/api_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>

#include "bench/api_setup.h"
#include "bench/http_load_client.h"
#include "bench/percentile.h"
#include "bench/process_stats.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kPollEvery{5};

double ms_since(SteadyClock::time_point start) { return seconds_since(start) * 1000.0; }

// CPU time of this process (the bench's clients), in seconds.
double own_cpu_s() { return rusage_cpu_s(RUSAGE_SELF); }

class ApiBench {
 public:
  ApiBench(const ApiConfig& config, ApiReport& report, std::FILE* log, const fs::path& work,
           std::string data_dir)
      : config_(config), report_(report), log_(log), work_(work), data_dir_(std::move(data_dir)) {}
  // SIGTERM rather than SIGKILL, also after a failure: allotd then stops its
  // pods (an hour-long sleep) itself.
  ~ApiBench() {
    if (allotd_) allotd_->stop(kAllotdStopLimit);
  }
  ApiBench(const ApiBench&) = delete;
  ApiBench& operator=(const ApiBench&) = delete;

  std::string run() {
    if (std::string error = start(); !error.empty()) return error;
    if (std::string error = apply_policy(); !error.empty()) return error;
    if (std::string error = submit(); !error.empty()) return error;
    if (std::string error = list(); !error.empty()) return error;
    if (std::string error = fill(); !error.empty()) return error;
    return restart();
  }

 private:
  tools::AllotdLaunch launch(const std::string& listen) const {
    return {config_.allotd,
            data_dir_,
            listen,
            (work_ / "allotd.err").string(),
            {"--no-cgroups", "--threads", std::to_string(config_.allotd_threads), "--audit",
             config_.audit, "--metering", config_.metering}};
  }

  std::string start() {
    allotd_ = std::make_unique<tools::AllotdChild>(launch("127.0.0.1:0"));
    if (std::string error = allotd_->start(kAllotdStartLimit); !error.empty()) {
      return "allotd did not start: " + error;
    }
    port_ = allotd_->port();
    std::fprintf(log_, "allotd %d listening on port %d, data in %s\n", allotd_->pid(), port_,
                 data_dir_.c_str());
    return {};
  }

  std::string apply_policy() {
    const auto http = api_bench_client(port_, allotd_->admin_token());
    const httplib::Result res = http->Post("/api/v1/apply", api_bench_policy(), "application/yaml");
    if (!res || res->status != 200) return "apply of the policy failed: " + describe(res);
    return {};
  }

  std::string submit() {
    const int32_t clients = std::max(1, config_.clients);
    std::vector<std::unique_ptr<HttpLoadClient>> http;
    for (int32_t c = 0; c < clients; ++c) {
      http.push_back(std::make_unique<HttpLoadClient>(port_, 120, allotd_->admin_token()));
    }
    std::fprintf(log_, "submitting %d workloads from %d clients\n", config_.submits, clients);
    const CpuTime cpu_before = cpu_time(allotd_->pid());
    const double client_cpu_before = own_cpu_s();
    const SubmitBurst burst = submit_burst(http, 0, config_.submits);
    const CpuTime cpu_after = cpu_time(allotd_->pid());
    const double client_cpu = own_cpu_s() - client_cpu_before;
    const std::vector<double>& all = burst.latencies_ms;
    report_.submit_wall_s = burst.wall_s;
    report_.submits_ok = static_cast<int64_t>(all.size());
    report_.submit_errors = burst.errors;
    report_.durable_submits_per_s = static_cast<double>(all.size()) / report_.submit_wall_s;
    report_.submit_p50_ms = percentile(all, 50);
    report_.submit_p99_ms = percentile(all, 99);
    report_.submit_max_ms = percentile(all, 100);
    const double submits = std::max<double>(1, static_cast<double>(config_.submits));
    const double allotd_cpu = cpu_after.total_s - cpu_before.total_s;
    report_.submit_allotd_cpu_ms = allotd_cpu * 1000.0 / submits;
    report_.submit_loop_cpu_share =
        allotd_cpu > 0 ? busiest_thread_s(cpu_before, cpu_after) / allotd_cpu : 0;
    report_.submit_client_cpu_ms = client_cpu * 1000.0 / submits;
    std::fprintf(log_, "  %lld stored in %.2f s: %.0f/s, p50 %.2f ms, p99 %.2f ms, %lld errors\n",
                 static_cast<long long>(report_.submits_ok), report_.submit_wall_s,
                 report_.durable_submits_per_s, report_.submit_p50_ms, report_.submit_p99_ms,
                 static_cast<long long>(report_.submit_errors));
    std::fprintf(log_,
                 "  CPU per submit: allotd %.3f ms (%.0f%% on its busiest thread), "
                 "clients %.3f ms\n",
                 report_.submit_allotd_cpu_ms, report_.submit_loop_cpu_share * 100,
                 report_.submit_client_cpu_ms);
    if (report_.submit_errors > 0) {
      return std::to_string(report_.submit_errors) + " submits failed, first: " + burst.first_error;
    }
    return {};
  }

  std::string list() {
    constexpr int64_t kPage = 10'000;
    report_.list_stored = report_.submits_ok;
    if (report_.list_stored < kPage) {
      return "the list needs at least 10,000 stored workloads; use --submits 10000 or more";
    }
    const auto http = api_bench_client(port_, allotd_->admin_token());
    const std::string path = "/api/v1/workloads?limit=" + std::to_string(kPage);
    // Untimed once: the answer is checked, and the connection opened.
    const httplib::Result first = http->Get(path);
    if (!first || first->status != 200) return "list failed: " + describe(first);
    const nlohmann::json page = nlohmann::json::parse(first->body, nullptr, false);
    if (page.is_discarded() || !page.contains("items")) return "the list is not JSON";
    report_.list_items = static_cast<int64_t>(page.at("items").size());
    report_.list_bytes = static_cast<int64_t>(first->body.size());
    if (report_.list_items != kPage) {
      return "the list returned " + std::to_string(report_.list_items) + " items, not 10000";
    }
    std::vector<double> times;
    const double cpu_before = cpu_time(allotd_->pid()).total_s;
    for (int32_t run = 0; run < config_.list_runs; ++run) {
      const auto sent = SteadyClock::now();
      const httplib::Result res = http->Get(path);
      const double elapsed = ms_since(sent);
      if (!res || res->status != 200) return "list failed: " + describe(res);
      times.push_back(elapsed);
    }
    report_.list_allotd_cpu_ms = (cpu_time(allotd_->pid()).total_s - cpu_before) * 1000.0 /
                                 std::max<double>(1, static_cast<double>(config_.list_runs));
    report_.list_10k_p50_ms = percentile(times, 50);
    report_.list_10k_p99_ms = percentile(times, 99);
    report_.list_10k_max_ms = percentile(times, 100);
    std::fprintf(log_,
                 "list of 10,000 (%lld bytes): p50 %.2f ms, p99 %.2f ms, allotd CPU %.2f ms\n",
                 static_cast<long long>(report_.list_bytes), report_.list_10k_p50_ms,
                 report_.list_10k_p99_ms, report_.list_allotd_cpu_ms);
    return {};
  }

  std::string fill() {
    const int64_t missing = std::max<int64_t>(0, config_.restart_workloads - report_.submits_ok);
    const int64_t batch = std::max(1, config_.apply_batch);
    const int64_t batches = (missing + batch - 1) / batch;
    std::fprintf(log_, "filling %lld workloads through apply, %lld per request\n",
                 static_cast<long long>(missing), static_cast<long long>(batch));
    std::atomic<int64_t> next{0};
    std::atomic<int64_t> filled{0};
    std::mutex error_mu;
    std::string first_error;
    const auto start = SteadyClock::now();
    std::vector<std::thread> threads;
    // Applies run one at a time in allotd; two clients overlap the transfer.
    for (int c = 0; c < 2; ++c) {
      threads.emplace_back([&] {
        const auto http = api_bench_client(port_, allotd_->admin_token());
        for (int64_t b = next++; b < batches; b = next++) {
          std::string body;
          const int64_t end = std::min(missing, (b + 1) * batch);
          for (int64_t i = b * batch; i < end; ++i) {
            body += "---\n" + api_bench_workload_json("f-" + std::to_string(i)) + "\n";
          }
          const httplib::Result res = http->Post("/api/v1/apply", body, "application/yaml");
          if (res && res->status == 200) {
            filled += end - b * batch;
            continue;
          }
          std::lock_guard lock(error_mu);
          if (first_error.empty()) first_error = describe(res);
          next = batches;  // stop
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    report_.filled = filled.load();
    report_.fill_s = seconds_since(start);
    report_.fill_per_s =
        report_.fill_s > 0 ? static_cast<double>(report_.filled) / report_.fill_s : 0;
    report_.restart_stored = report_.submits_ok + report_.filled;
    std::fprintf(log_, "  %lld applied in %.2f s (%.0f/s); %lld stored\n",
                 static_cast<long long>(report_.filled), report_.fill_s, report_.fill_per_s,
                 static_cast<long long>(report_.restart_stored));
    if (!first_error.empty()) return "apply of workloads failed: " + first_error;
    return {};
  }

  std::string restart() {
    const tools::ProcessExit exit = allotd_->stop(kAllotdStopLimit);
    report_.stop_s = exit.seconds;
    if (exit.killed_after_deadline) return "allotd did not stop within 120 s of SIGTERM";
    if (!exit.exited || exit.code != 0) {
      return "allotd ended with " + std::string(exit.exited ? "code " : "signal ") +
             std::to_string(exit.code);
    }
    std::fprintf(log_, "stopped with SIGTERM in %.3f s; starting again on port %d\n",
                 report_.stop_s, port_);
    allotd_ = std::make_unique<tools::AllotdChild>(launch("127.0.0.1:" + std::to_string(port_)));
    if (std::string error = allotd_->start(kAllotdStartLimit); !error.empty()) {
      return "allotd did not start again: " + error;
    }
    const auto exec = allotd_->started_at();
    if (!poll_ok("/readyz", exec, false)) return "allotd did not become ready: " + tail();
    report_.restart_100k_s = seconds_since(exec);
    report_.restart_allotd_cpu_s = cpu_time(allotd_->pid()).total_s;
    if (!poll_ok("/api/v1/workloads?limit=1", exec, true)) {
      return "the first list after the restart failed: " + tail();
    }
    report_.restart_first_list_s = seconds_since(exec);
    report_.rss_after_restart_mib = rss_mib(allotd_->pid());
    std::fprintf(log_, "  ready %.3f s after exec, first list %.3f s after exec, RSS %.0f MiB\n",
                 report_.restart_100k_s, report_.restart_first_list_s,
                 report_.rss_after_restart_mib);
    if (std::string error = count_all(); !error.empty()) return error;
    allotd_->stop(kAllotdStopLimit);
    return {};
  }

  // Polls `path` every 5 ms until it answers 200; false when allotd exits or
  // a minute passes. `keep_alive`: one connection (else a new one per try,
  // as a readiness probe does).
  bool poll_ok(const std::string& path, SteadyClock::time_point since, bool keep_alive) {
    std::unique_ptr<httplib::Client> kept;
    for (;;) {
      std::unique_ptr<httplib::Client> fresh;
      httplib::Client* http = nullptr;
      if (keep_alive) {
        if (!kept) kept = api_bench_client(port_, allotd_->admin_token());
        http = kept.get();
      } else {
        fresh = std::make_unique<httplib::Client>("127.0.0.1", port_);
        fresh->set_connection_timeout(0, 200'000);
        http = fresh.get();
      }
      const httplib::Result res = http->Get(path);
      if (res && res->status == 200) return true;
      if (SteadyClock::now() - since > kAllotdStartLimit) return false;
      std::this_thread::sleep_for(kPollEvery);
    }
  }

  // Reads every page back: the restart lost nothing.
  std::string count_all() {
    const auto http = api_bench_client(port_, allotd_->admin_token());
    std::string token;
    int64_t count = 0;
    do {
      const httplib::Result res =
          http->Get("/api/v1/workloads?limit=10000" + (token.empty() ? "" : "&continue=" + token));
      if (!res || res->status != 200) return "list after the restart failed: " + describe(res);
      const nlohmann::json page = nlohmann::json::parse(res->body, nullptr, false);
      if (page.is_discarded()) return "a page after the restart is not JSON";
      count += static_cast<int64_t>(page.at("items").size());
      token = page.at("continue").get<std::string>();
    } while (!token.empty());
    report_.listed_after_restart = count;
    if (count != report_.restart_stored) {
      return std::to_string(count) + " workloads listed after the restart, " +
             std::to_string(report_.restart_stored) + " were stored";
    }
    return {};
  }

  // The last part of allotd's stderr, for error messages.
  std::string tail() const {
    const std::string text = allotd_ ? allotd_->stderr_text() : std::string();
    constexpr size_t kTail = 2000;
    return text.size() <= kTail ? text : text.substr(text.size() - kTail);
  }

  const ApiConfig& config_;
  ApiReport& report_;
  std::FILE* log_;
  fs::path work_;
  std::string data_dir_;
  std::unique_ptr<tools::AllotdChild> allotd_;
  int port_ = 0;
};

}  // namespace

ApiReport run_api(const ApiConfig& config, std::FILE* log) {
  ApiReport report;
  report.config = config;
  const WorkFolder work;
  if (work.path().empty()) {
    report.error = "cannot create a folder under " + fs::temp_directory_path().string();
    return report;
  }
  std::string data_dir = config.data_dir;
  if (data_dir.empty()) {
    data_dir = (work.path() / "data").string();
  } else if (std::error_code error; fs::exists(data_dir, error) && !fs::is_empty(data_dir, error)) {
    report.error = "--data-dir " + data_dir + " is not empty";
    return report;
  }
  ApiBench bench(config, report, log, work.path(), data_dir);
  report.error = bench.run();
  if (config.data_dir.empty()) tools::remove_host_accounts(config.allotd, data_dir, log);
  return report;
}

}  // namespace allot::bench
