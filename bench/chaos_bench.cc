#include "bench/chaos_bench.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bench/chaos_client.h"
#include "bench/chaos_database.h"
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

constexpr milliseconds kChaosStartLimit{60'000};
constexpr milliseconds kChaosStopLimit{120'000};
constexpr milliseconds kReadyLimit{60'000};
// A restart on the same port right after a kill may find it still held.
constexpr int kRestartAttempts = 20;
constexpr milliseconds kRestartBackoff{250};
constexpr const char* kCycle = "200ms";

double chaos_seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// allotd on one data folder, killed and started again on the port it got first.
class ChaosServer {
 public:
  // `store`: a PostgreSQL conninfo, or "" for SQLite in the data folder.
  ChaosServer(const ChaosConfig& config, const fs::path& work, std::string health, std::string name,
              std::string store)
      : config_(config),
        work_(work),
        health_(std::move(health)),
        name_(std::move(name)),
        store_(std::move(store)) {}

  std::string start(const std::string& listen) {
    std::vector<std::string> flags = {"--threads",         std::to_string(config_.allotd_threads),
                                      "--health-check",    health_,
                                      "--health-interval", "200ms",
                                      "--health-timeout",  "5s"};
    if (!store_.empty()) {
      flags.insert(flags.end(), {"--store", store_, "--leader-name", name_});
    }
    child_ = std::make_unique<tools::AllotdChild>(tools::AllotdLaunch{
        config_.allotd, (work_ / "data").string(), listen,
        (work_ / ("allotd" + (name_.empty() ? "" : "-" + name_) + ".err")).string(), flags});
    std::string error = child_->start(kChaosStartLimit);
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
  void stop() { child_->stop(kChaosStopLimit); }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return child_->pid(); }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  const ChaosConfig& config_;
  fs::path work_;
  std::string health_;
  std::string name_;
  std::string store_;
  std::unique_ptr<tools::AllotdChild> child_;
  int port_ = 0;
};

bool wait_ready(int port) {
  HttpLoadClient http(port, 10);
  return poll_until([&] { return http.request("GET", "/readyz").status == 200; }, kReadyLimit);
}

// The allotd the clients talk to, and with PostgreSQL a second one standing
// by on the same data folder. `port` is the leader's, which the clients follow.
class ChaosServers {
 public:
  ChaosServers(const ChaosConfig& config, const fs::path& work, const std::string& health,
               const std::string& store) {
    if (store.empty()) {
      leader_ = std::make_unique<ChaosServer>(config, work, health, "", "");
    } else {
      leader_ = std::make_unique<ChaosServer>(config, work, health, "a", store);
      standby_ = std::make_unique<ChaosServer>(config, work, health, "b", store);
    }
  }

  // The leader first (it takes the lead: nobody else holds it), then the standby.
  std::string start() {
    if (std::string error = leader_->start("127.0.0.1:0"); !error.empty()) return error;
    if (!wait_ready(leader_->port())) return "the first allotd was not ready within 60 s";
    port.store(leader_->port());
    return standby_ ? standby_->start("127.0.0.1:0") : "";
  }

  // SIGKILL to the leader. Without a standby it is started again; with one,
  // the standby takes over, the clients follow it, and the killed one comes
  // back as the standby. Returns an error, or "" once the new leader is ready.
  std::string kill_leader() {
    leader_->kill();
    if (!standby_) {
      if (std::string error = leader_->restart(); !error.empty())
        return "allotd did not restart: " + error;
      if (!wait_ready(leader_->port())) return "allotd was not ready within 60 s of its restart";
      return "";
    }
    if (!wait_ready(standby_->port())) return "the standby did not take over within 60 s";
    port.store(standby_->port());
    std::swap(leader_, standby_);
    if (std::string error = standby_->restart(); !error.empty()) {
      return "the killed allotd did not start again as a standby: " + error;
    }
    return "";
  }

  void stop() {
    if (standby_) standby_->stop();
    leader_->stop();
  }

  ChaosServer& leader() { return *leader_; }
  std::atomic<int> port{0};

 private:
  std::unique_ptr<ChaosServer> leader_;
  std::unique_ptr<ChaosServer> standby_;
};

// The clients and their threads; the gate parks them for the checks.
struct ClientPool {
  ClientPool(const ChaosConfig& config, const ChaosClientConfig& client_config,
             const std::atomic<int>& port)
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
  round.check_s = chaos_seconds_since(start);
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

// The rounds: load, a kill at a seeded moment, a restart (or a takeover),
// the checks, load.
void run_rounds(const ChaosConfig& config, ChaosServers& servers, ChaosNodeFailer& failer,
                ClientPool& pool, const fs::path& data, ChaosReport& report, std::FILE* log) {
  std::mt19937_64 rng(config.seed);
  const milliseconds round_length(int64_t{config.seconds} * 1000 / config.rounds);
  const SteadyClock::time_point load_start = SteadyClock::now();
  for (int32_t r = 0; r < config.rounds; ++r) {
    const milliseconds kill_offset(
        round_length.count() / 4 +
        static_cast<int64_t>(rng() % static_cast<uint64_t>(round_length.count() / 2 + 1)));
    failer.wait_until(SteadyClock::now() + kill_offset);
    const double at_s = chaos_seconds_since(load_start);
    std::fprintf(log, "[kill %d at %.1f s] SIGKILL to allotd %d\n", r + 1, at_s,
                 servers.leader().pid());
    const SteadyClock::time_point killed = SteadyClock::now();
    ++report.kills;
    if (std::string error = servers.kill_leader(); !error.empty()) {
      report.error = error;
      return;
    }
    const double restart_s = chaos_seconds_since(killed);
    std::fprintf(log, "[kill %d] allotd %s serves on port %d %.2f s after the kill\n", r + 1,
                 servers.leader().name().c_str(), servers.port.load(), restart_s);
    report.rounds.push_back(
        check_round("kill " + std::to_string(r + 1), at_s, pool, servers.port.load(), data, log));
    report.rounds.back().restart_s = restart_s;
    failer.wait_until(SteadyClock::now() + round_length - kill_offset);
  }
}

std::string drive(const ChaosConfig& config, ChaosServers& servers, ChaosNodeFailer& failer,
                  const fs::path& data, ChaosReport& report, std::FILE* log) {
  const std::string token = tools::read_admin_token(data.string());
  HttpLoadClient setup(servers.port.load(), 60, token);
  const HttpAnswer applied = setup.post("/api/v1/apply", "application/yaml",
                                        load_policy_yaml({.nodes = config.nodes, .cycle = kCycle}));
  if (applied.status != 200) return "apply of the policy failed: " + applied.body + applied.error;
  const ChaosClientConfig client_config{config.nodes, config.timeout_s, config.seed, kCycle, token};
  std::fprintf(log, "%d clients, %d s of load in %d rounds, seed %llu\n", config.clients,
               config.seconds, config.rounds, static_cast<unsigned long long>(config.seed));
  const SteadyClock::time_point start = SteadyClock::now();
  ClientPool pool(config, client_config, servers.port);
  run_rounds(config, servers, failer, pool, data, report, log);
  pool.finish();
  if (report.error.empty()) {
    report.rounds.push_back(
        check_round("final", chaos_seconds_since(start), pool, servers.port.load(), data, log));
  }
  report.wall_s = chaos_seconds_since(start);
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
  std::optional<ChaosDatabase> database;
  if (!config.postgres.empty()) {
    Result<ChaosDatabase> made = ChaosDatabase::create(config.postgres);
    if (!made.ok()) {
      report.error = "cannot make the PostgreSQL database: " + made.status().to_string();
      return report;
    }
    database.emplace(std::move(made).value());
  }
  {
    ChaosNodeFailer failer(work, config.nodes, config.seed, config.fail_nodes);
    ChaosServers servers(config, work, failer.health_check_command(),
                         database ? database->conninfo() : "");
    if (std::string error = servers.start(); !error.empty()) {
      report.error = "allotd did not start: " + error;
    } else {
      std::fprintf(log, "allotd %d on port %d, data in %s%s\n", servers.leader().pid(),
                   servers.port.load(), (work / "data").c_str(),
                   database ? ", state in PostgreSQL, a standby on the same folder" : "");
      report.error = drive(config, servers, failer, work / "data", report, log);
      servers.stop();
    }
  }
  tools::remove_host_accounts(config.allotd, (work / "data").string(), log);
  if (report.passed()) {
    std::error_code ignored;
    fs::remove_all(work, ignored);
    if (database) database->drop();
  } else {
    report.work_dir = work.string();
  }
  return report;
}

}  // namespace allot::bench
