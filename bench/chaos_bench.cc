#include "bench/chaos_bench.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <thread>

#include <unistd.h>

#include "bench/chaos_client.h"
#include "bench/chaos_gate.h"
#include "bench/chaos_node_failer.h"
#include "bench/chaos_reader.h"
#include "bench/load_cluster.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kStartLimit{60'000};
constexpr milliseconds kStopLimit{120'000};
constexpr milliseconds kReadyLimit{60'000};
// A restart on the same port right after a kill may find it still held.
constexpr int kRestartAttempts = 20;
constexpr milliseconds kRestartBackoff{250};
constexpr const char* kCycle = "200ms";

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// allotd on one data folder, killed and started again on the port it got first.
class ChaosServer {
 public:
  ChaosServer(const ChaosConfig& config, const fs::path& work, std::string health)
      : config_(config), work_(work), health_(std::move(health)) {}

  std::string start(const std::string& listen) {
    child_ = std::make_unique<tools::AllotdChild>(
        tools::AllotdLaunch{config_.allotd,
                            (work_ / "data").string(),
                            listen,
                            (work_ / "allotd.err").string(),
                            {"--threads", std::to_string(config_.allotd_threads), "--health-check",
                             health_, "--health-interval", "200ms", "--health-timeout", "5s"}});
    std::string error = child_->start(kStartLimit);
    if (error.empty()) port_ = child_->port();
    return error;
  }
  std::string restart() {
    std::string error;
    for (int attempt = 0; attempt < kRestartAttempts; ++attempt) {
      error = start("127.0.0.1:" + std::to_string(port_));
      if (error.empty()) return error;
      std::this_thread::sleep_for(kRestartBackoff);
    }
    return error;
  }
  void kill() { child_->kill(); }
  void stop() { child_->stop(kStopLimit); }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return child_->pid(); }

 private:
  const ChaosConfig& config_;
  fs::path work_;
  std::string health_;
  std::unique_ptr<tools::AllotdChild> child_;
  int port_ = 0;
};

bool wait_ready(int port) {
  HttpLoadClient http(port, 10);
  return poll_until([&] { return http.request("GET", "/readyz").status == 200; }, kReadyLimit);
}

// The clients and their threads; the gate parks them for the checks.
struct ClientPool {
  ClientPool(const ChaosConfig& config, const ChaosClientConfig& client_config, int port)
      : gate(config.clients) {
    for (int32_t i = 0; i < config.clients; ++i) {
      clients.push_back(std::make_unique<ChaosClient>(client_config, port, i));
    }
    for (const auto& client : clients) {
      threads.emplace_back([this, &client] { client->run_until(stop, gate); });
    }
  }
  void finish() {
    stop = true;
    gate.resume();
    for (std::thread& thread : threads) thread.join();
    threads.clear();
  }
  [[nodiscard]] std::vector<const ChaosLedger*> ledgers() const {
    std::vector<const ChaosLedger*> out;
    for (const auto& client : clients) out.push_back(&client->ledger());
    return out;
  }

  ChaosGate gate;
  std::atomic<bool> stop{false};
  std::vector<std::unique_ptr<ChaosClient>> clients;
  std::vector<std::thread> threads;
};

ChaosRound check_round(std::string name, double at_s, ClientPool& pool, int port,
                       const fs::path& data, std::FILE* log) {
  ChaosRound round;
  round.name = std::move(name);
  round.at_s = at_s;
  const SteadyClock::time_point start = SteadyClock::now();
  pool.gate.pause();
  round.check = check_chaos_invariants(port, pool.ledgers(), data.string());
  pool.gate.resume();
  round.check_s = seconds_since(start);
  const ChaosCheckResult& c = round.check;
  std::fprintf(log,
               "[%s at %.1f s] checked %lld submits, %lld cancels, %lld deletes acknowledged; "
               "%lld stored, %lld GPUs held, %lld pods alive; %zu violations (%.1f s)%s%s\n",
               round.name.c_str(), at_s, static_cast<long long>(c.submits_checked),
               static_cast<long long>(c.cancels_checked), static_cast<long long>(c.deletes_checked),
               static_cast<long long>(c.workloads_stored), static_cast<long long>(c.gpus_held),
               static_cast<long long>(c.pods_alive), c.violations.size(), round.check_s,
               c.error.empty() ? "" : "; error: ", c.error.c_str());
  return round;
}

void summarise(const ClientPool& pool, ChaosReport& report) {
  for (const auto& client : pool.clients) {
    const ChaosLedger& ledger = client->ledger();
    report.acked_submits += ledger.acked_submits;
    report.acked_cancels += ledger.acked_cancels;
    report.acked_deletes += ledger.acked_deletes;
    report.unknown_writes += ledger.unknown_writes;
    report.requests += client->requests();
    report.unanswered += client->unanswered();
    report.not_sent += client->not_sent();
    report.errors += client->errors();
    if (report.first_error.empty()) report.first_error = client->first_error();
    for (const std::string& v : client->violations()) report.violations.push_back("client: " + v);
  }
  for (const ChaosRound& round : report.rounds) {
    for (const std::string& v : round.check.violations) {
      report.violations.push_back(round.name + ": " + v);
    }
    if (report.error.empty() && !round.check.error.empty()) {
      report.error = round.name + ": the check could not read allotd: " + round.check.error;
    }
  }
}

// The rounds: load, a kill at a seeded moment, a restart, the checks, load.
void run_rounds(const ChaosConfig& config, ChaosServer& server, ChaosNodeFailer& failer,
                ClientPool& pool, const fs::path& data, ChaosReport& report, std::FILE* log) {
  std::mt19937_64 rng(config.seed);
  const milliseconds round_length(int64_t{config.seconds} * 1000 / config.rounds);
  const SteadyClock::time_point load_start = SteadyClock::now();
  for (int32_t r = 0; r < config.rounds; ++r) {
    const milliseconds kill_offset(
        round_length.count() / 4 +
        static_cast<int64_t>(rng() % static_cast<uint64_t>(round_length.count() / 2 + 1)));
    failer.wait_until(SteadyClock::now() + kill_offset);
    const double at_s = seconds_since(load_start);
    std::fprintf(log, "[kill %d at %.1f s] SIGKILL to allotd %d\n", r + 1, at_s, server.pid());
    const SteadyClock::time_point killed = SteadyClock::now();
    server.kill();
    ++report.kills;
    if (std::string error = server.restart(); !error.empty()) {
      report.error = "allotd did not restart: " + error;
      return;
    }
    if (!wait_ready(server.port())) {
      report.error = "allotd was not ready within 60 s of its restart";
      return;
    }
    const double restart_s = seconds_since(killed);
    report.rounds.push_back(
        check_round("kill " + std::to_string(r + 1), at_s, pool, server.port(), data, log));
    report.rounds.back().restart_s = restart_s;
    failer.wait_until(SteadyClock::now() + round_length - kill_offset);
  }
}

std::string drive(const ChaosConfig& config, ChaosServer& server, ChaosNodeFailer& failer,
                  const fs::path& data, ChaosReport& report, std::FILE* log) {
  HttpLoadClient setup(server.port(), 60);
  const HttpAnswer applied = setup.post("/api/v1/apply", "application/yaml",
                                        load_policy_yaml({.nodes = config.nodes, .cycle = kCycle}));
  if (applied.status != 200) return "apply of the policy failed: " + applied.body + applied.error;
  const ChaosClientConfig client_config{config.nodes, config.timeout_s, config.seed, kCycle};
  std::fprintf(log, "%d clients, %d s of load in %d rounds, seed %llu\n", config.clients,
               config.seconds, config.rounds, static_cast<unsigned long long>(config.seed));
  const SteadyClock::time_point start = SteadyClock::now();
  ClientPool pool(config, client_config, server.port());
  run_rounds(config, server, failer, pool, data, report, log);
  pool.finish();
  if (report.error.empty()) {
    report.rounds.push_back(
        check_round("final", seconds_since(start), pool, server.port(), data, log));
  }
  report.wall_s = seconds_since(start);
  report.node_failures = failer.failures();
  summarise(pool, report);
  return report.error;
}

}  // namespace

ChaosReport run_chaos(const ChaosConfig& config, std::FILE* log) {
  ChaosReport report;
  report.config = config;
  const fs::path work =
      fs::absolute(fs::temp_directory_path() / ("allot-chaos-" + std::to_string(::getpid())));
  fs::create_directories(work);
  {
    ChaosNodeFailer failer(work, config.nodes, config.seed, config.fail_nodes);
    ChaosServer server(config, work, failer.health_check_command());
    if (std::string error = server.start("127.0.0.1:0"); !error.empty()) {
      report.error = "allotd did not start: " + error;
    } else {
      std::fprintf(log, "allotd %d on port %d, data in %s\n", server.pid(), server.port(),
                   (work / "data").c_str());
      report.error = drive(config, server, failer, work / "data", report, log);
      server.stop();
    }
  }
  if (report.passed()) {
    std::error_code ignored;
    fs::remove_all(work, ignored);
  } else {
    report.work_dir = work.string();
  }
  return report;
}

}  // namespace allot::bench
