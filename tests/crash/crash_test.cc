// Crash test of allotd (service/control_plane.h, docs/api.md): the real
// binary with its SQLite store and local executor, on a fresh data directory.
// 8 clients submit 1-GPU sleep workloads into two 8-GPU nodes shared by three
// teams of one cohort; at a seeded point, with submits in flight and pods
// running, allotd gets SIGKILL; it is started again on the same directory.
// Three times. After each restart:
// - every submit that was answered 201 exists, by name, with that answer's uid;
// - no uid and no namespace/name is listed twice (following `continue`);
// - the pods the killed process left behind are gone (the local executor
//   kills stale process groups when it starts);
// - at a quiet moment (the list is the same before and after the reads),
//   per team the GPUs of Admitted and Running workloads equal its usage in
//   GET /api/v1/top, and no node's allocation exceeds its capacity; at one
//   such moment at least, GPUs are in use (else the check compared nothing).
// At the end, once everything has finished: no workload was admitted twice
// without a stop in between (events), restarts count the requeues, every
// workload succeeded, and nothing is in use any more.
//
// Only polls with deadlines; no fixed waits.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "allotd_process.h"

namespace {

namespace fs = std::filesystem;
using allot::server_test::AllotdProcess;
using allot::server_test::ProcessExit;
using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using namespace std::chrono_literals;

// allotd's flags: no cgroups (the test machine may have none), few HTTP threads.
const std::vector<std::string> kAllotdFlags = {"--no-cgroups", "--threads", "16"};
constexpr uint64_t kSeed = 20261130;
constexpr int kClients = 8;
constexpr int kCrashes = 3;
// Each crash comes after this many acknowledged submits of its round (seeded).
constexpr size_t kMinAcksBeforeKill = 30;
constexpr size_t kMaxAcksBeforeKill = 90;
constexpr const char* kTeams[] = {"research", "vision-inference", "llm-training"};

constexpr const char* kPolicy = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 100ms}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: local, flavor: gpu, count: 2, resources: {gpu: 8, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 100, preemptionGracePeriod: 0s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 6}}}]
---
apiVersion: allot/v1
kind: Team
metadata: {name: vision-inference}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 5}}}]
---
apiVersion: allot/v1
kind: Team
metadata: {name: llm-training}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 5}}}]
)";

// Calls `done` every 5 ms until it returns true (true) or `limit` passes (false).
template <typename Done>
bool poll_until(Done&& done, milliseconds limit) {
  const auto deadline = SteadyClock::now() + limit;
  for (;;) {
    if (done()) return true;
    if (SteadyClock::now() >= deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A client of allotd on `port`, logged in with the first administrator's
// API token (DATA/admin-token).
std::unique_ptr<httplib::Client> client_for(int port, const std::string& token) {
  auto client = std::make_unique<httplib::Client>("127.0.0.1", port);
  client->set_bearer_token_auth(token);
  client->set_keep_alive(true);
  client->set_connection_timeout(2, 0);
  client->set_read_timeout(20, 0);
  client->set_write_timeout(5, 0);
  return client;
}

// GET `path`, expecting 200 and JSON; a discarded value (and a test failure) otherwise.
json get_json(httplib::Client& http, const std::string& path) {
  const httplib::Result res = http.Get(path);
  if (!res) {
    ADD_FAILURE() << "GET " << path << ": " << httplib::to_string(res.error());
    return json(json::value_t::discarded);
  }
  if (res->status != 200) {
    ADD_FAILURE() << "GET " << path << ": " << res->status << " " << res->body;
    return json(json::value_t::discarded);
  }
  return json::parse(res->body, nullptr, false);
}

// Every workload (all namespaces), page after page; `filter` is extra query.
std::vector<json> list_all(httplib::Client& http, const std::string& filter = "") {
  std::vector<json> items;
  std::string token;
  do {
    const json page = get_json(http, "/api/v1/workloads?limit=10000" + filter +
                                         (token.empty() ? "" : "&continue=" + token));
    if (page.is_discarded()) return items;
    for (const json& item : page.at("items")) items.push_back(item);
    token = page.at("continue").get<std::string>();
  } while (!token.empty());
  return items;
}

int64_t gpus_of(const json& workload) {
  int64_t gpus = 0;
  for (const json& pod_set : workload.at("spec").at("podSets")) {
    const json& resources = pod_set.at("resources");
    if (resources.contains("gpu")) {
      gpus +=
          pod_set.at("count").get<int64_t>() * std::stoll(resources.at("gpu").get<std::string>());
    }
  }
  return gpus;
}

bool holds_quota(const json& workload) {
  const std::string phase = workload.at("status").at("phase").get<std::string>();
  return phase == "Admitted" || phase == "Running";
}

std::string key_of(const json& workload) {
  const json& meta = workload.at("metadata");
  return meta.at("namespace").get<std::string>() + "/" + meta.at("name").get<std::string>();
}

std::string workload_body(const std::string& name, const std::string& team,
                          const std::string& sleep) {
  return json{{"apiVersion", "allot/v1"},
              {"kind", "Workload"},
              {"metadata", {{"name", name}, {"namespace", team}}},
              {"spec",
               {{"priorityClass", "batch"},
                {"podSets", json::array({{{"count", 1}, {"resources", {{"gpu", 1}}}}})},
                {"command", json::array({"sleep", sleep})}}}}
      .dump();
}

struct Ack {
  std::string ns;
  std::string name;
  uint64_t uid = 0;
};

// kClients threads submitting without pause until stop(); keep-alive clients.
class Submitters {
 public:
  Submitters(int port, int round, std::string token) : token_(std::move(token)) {
    for (int c = 0; c < kClients; ++c) {
      threads_.emplace_back([this, port, round, c] { run(port, round, c); });
    }
  }
  ~Submitters() { stop(); }
  Submitters(const Submitters&) = delete;
  Submitters& operator=(const Submitters&) = delete;

  [[nodiscard]] size_t acknowledged() const { return acknowledged_.load(); }

  void stop() {
    stopping_ = true;
    for (std::thread& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

  // After stop().
  [[nodiscard]] const std::vector<Ack>& acks() const { return acks_; }
  [[nodiscard]] size_t failed() const { return failed_.load(); }
  [[nodiscard]] const std::vector<std::string>& unexpected() const { return unexpected_; }

 private:
  void run(int port, int round, int client) {
    const std::unique_ptr<httplib::Client> http = client_for(port, token_);
    for (int i = 0; !stopping_; ++i) {
      const std::string team = kTeams[(client + i) % std::size(kTeams)];
      const std::string name =
          "r" + std::to_string(round) + "-c" + std::to_string(client) + "-" + std::to_string(i);
      // One in eight runs longer, so that pods outlive a restart.
      const std::string body = workload_body(name, team, i % 8 == 7 ? "1" : "0.3");
      const httplib::Result res =
          http->Post("/api/v1/namespaces/" + team + "/workloads", body, "application/json");
      if (!res) {  // the server is gone: not acknowledged
        ++failed_;
        continue;
      }
      std::lock_guard lock(mu_);
      if (res->status == 201) {
        const json answer = json::parse(res->body, nullptr, false);
        if (answer.is_discarded()) {
          unexpected_.push_back("201 without JSON for " + name);
          continue;
        }
        acks_.push_back({team, name, answer.at("metadata").at("uid").get<uint64_t>()});
        ++acknowledged_;
      } else {
        unexpected_.push_back(name + ": " + std::to_string(res->status) + " " + res->body);
      }
    }
  }

  std::string token_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> acknowledged_{0};
  std::atomic<size_t> failed_{0};
  std::mutex mu_;
  std::vector<Ack> acks_;
  std::vector<std::string> unexpected_;
};

// A pod process recorded in DATA/run/<id>-<pod>.pid ("pid pgid start_ticks").
struct PodProcess {
  std::string file;
  pid_t pid = 0;
  uint64_t start_ticks = 0;
};

std::vector<PodProcess> pod_processes(const fs::path& run_dir) {
  std::vector<PodProcess> pods;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(run_dir, error)) {
    if (entry.path().extension() != ".pid") continue;
    std::istringstream fields(read_file(entry.path()));
    PodProcess pod;
    pid_t pgid = 0;
    pod.file = entry.path().filename().string();
    if (fields >> pod.pid >> pgid >> pod.start_ticks) pods.push_back(pod);
  }
  return pods;
}

// True while the process of `pod` exists and is not a zombie (a killed child
// of an init that does not reap stays one).
bool alive(const PodProcess& pod) {
  const std::string stat = read_file("/proc/" + std::to_string(pod.pid) + "/stat");
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return false;
  std::istringstream fields(stat.substr(paren + 2));
  std::string state;
  std::string skip;
  fields >> state;
  for (int field = 4; field < 22; ++field) fields >> skip;  // fields 4..21
  uint64_t start_ticks = 0;
  fields >> start_ticks;
  return state != "Z" && state != "X" && start_ticks == pod.start_ticks;
}

size_t count_alive(const std::vector<PodProcess>& pods) {
  return static_cast<size_t>(std::count_if(pods.begin(), pods.end(), alive));
}

void expect_acknowledged_exist(httplib::Client& http, const std::vector<Ack>& acks) {
  for (const Ack& ack : acks) {
    const json workload = get_json(http, "/api/v1/namespaces/" + ack.ns + "/workloads/" + ack.name);
    if (workload.is_discarded()) {
      ADD_FAILURE() << "acknowledged workload " << ack.ns << "/" << ack.name << " (uid " << ack.uid
                    << ") is lost";
      continue;
    }
    EXPECT_EQ(workload.at("metadata").at("uid").get<uint64_t>(), ack.uid)
        << ack.ns << "/" << ack.name;
  }
}

void expect_unique(const std::vector<json>& items) {
  std::set<uint64_t> uids;
  std::set<std::string> keys;
  for (const json& item : items) {
    const uint64_t uid = item.at("metadata").at("uid").get<uint64_t>();
    EXPECT_TRUE(uids.insert(uid).second) << "uid " << uid << " is listed twice";
    EXPECT_TRUE(keys.insert(key_of(item)).second) << key_of(item) << " is listed twice";
  }
}

// Waits for a quiet moment (the Admitted and Running workloads are the same
// before and after top and nodes are read), then checks that team usage and node allocation agree
// with those workloads. Returns the GPUs in use at that moment.
int64_t expect_usage_matches(httplib::Client& http) {
  const std::string kHolding = "&phase=Admitted,Running";
  std::vector<json> items;
  json top;
  json nodes;
  int64_t running = 0;
  const bool quiet = poll_until(
      [&] {
        items = list_all(http, kHolding);
        top = get_json(http, "/api/v1/top");
        nodes = get_json(http, "/api/v1/nodes");
        if (top.is_discarded() || nodes.is_discarded()) return false;
        if (list_all(http, kHolding) != items) return false;
        running = 0;
        for (const json& item : items) running += gpus_of(item);
        return true;
      },
      20s);
  if (!quiet) {
    ADD_FAILURE() << "no quiet moment within 20 s";
    return running;
  }
  std::map<std::string, int64_t> expected;
  for (const char* team : kTeams) expected[team] = 0;
  for (const json& item : items) {
    EXPECT_TRUE(holds_quota(item)) << key_of(item);
    expected[item.at("status").at("team").get<std::string>()] += gpus_of(item);
  }
  std::map<std::string, int64_t> reported;
  for (const json& row : top.at("teams")) {
    if (row.at("resource") != "gpu") continue;
    reported[row.at("team").get<std::string>()] += std::stoll(row.at("usage").get<std::string>());
  }
  EXPECT_EQ(reported, expected) << "usage of /api/v1/top against the Admitted and Running set";
  int64_t allocated = 0;
  for (const json& node : nodes.at("items")) {
    // Quantities are strings ("8"); GPUs are whole numbers.
    const int64_t gpus = std::stoll(node.at("allocated").at("gpu").get<std::string>());
    EXPECT_LE(gpus, std::stoll(node.at("capacity").at("gpu").get<std::string>()))
        << node.at("name");
    EXPECT_GE(gpus, 0) << node.at("name");
    allocated += gpus;
  }
  EXPECT_EQ(allocated, running) << "GPUs allocated on nodes against the Admitted and Running set";
  return running;
}

// Over a finished workload's events: never two "Admitted" without a stop in
// between; restarts = requeues by a restart + preemptions.
void expect_admitted_once_per_run(httplib::Client& http, const json& workload) {
  const std::string key = key_of(workload);
  const size_t slash = key.find('/');
  const json events = get_json(http, "/api/v1/namespaces/" + key.substr(0, slash) + "/workloads/" +
                                         key.substr(slash + 1) + "/events");
  if (events.is_discarded()) return;
  static const std::set<std::string> kStops = {"Preempted", "Pending", "Succeeded", "Failed",
                                               "Cancelled"};
  bool admitted = false;
  int64_t requeues = 0;
  for (const json& event : events.at("items")) {
    const std::string type = event.at("type").get<std::string>();
    if (type == "Admitted") {
      EXPECT_FALSE(admitted) << key
                             << " was admitted twice without a stop in between: " << events.dump();
      admitted = true;
    } else if (kStops.contains(type)) {
      if (type == "Pending" && event.at("reason") == "Requeued") {
        EXPECT_TRUE(admitted) << key << " was requeued without being admitted: " << events.dump();
        ++requeues;
      }
      if (type == "Preempted") ++requeues;
      admitted = false;
    }
  }
  EXPECT_EQ(workload.at("status").at("restarts").get<int64_t>(), requeues) << key;
}

TEST(AllotdCrash, SigkillUnderLoadLosesNoAcknowledgedSubmitAndRunsNothingTwice) {
  ASSERT_TRUE(fs::exists(AllotdProcess::binary())) << AllotdProcess::binary();
  const auto began = SteadyClock::now();
  AllotdProcess server;
  const fs::path data = server.data_dir();
  std::mt19937_64 rng(kSeed);
  const std::string started = server.start(kAllotdFlags);
  ASSERT_TRUE(started.empty()) << started;
  int port = server.port();
  {
    const std::unique_ptr<httplib::Client> http = client_for(port, server.admin_token());
    const httplib::Result applied = http->Post("/api/v1/apply", kPolicy, "application/yaml");
    ASSERT_TRUE(applied);
    ASSERT_EQ(applied->status, 200) << applied->body;
  }

  std::vector<Ack> acked;
  size_t stale_alive_total = 0;
  int64_t gpus_seen_running = 0;  // at the quiet moments after the restarts
  for (int crash = 0; crash < kCrashes; ++crash) {
    const size_t kill_after =
        std::uniform_int_distribution<size_t>(kMinAcksBeforeKill, kMaxAcksBeforeKill)(rng);
    Submitters submitters(port, crash, server.admin_token());
    // The kill point: enough acknowledged submits of this round, and pods running.
    const bool due = poll_until(
        [&] {
          return submitters.acknowledged() >= kill_after && !pod_processes(data / "run").empty();
        },
        20s);
    server.kill();  // the clients go on: their requests in flight fail
    submitters.stop();
    ASSERT_TRUE(due) << "crash " << crash << ": " << submitters.acknowledged()
                     << " acknowledged submits and no pod running within 20 s";
    EXPECT_TRUE(submitters.unexpected().empty())
        << submitters.unexpected().size()
        << " submits answered other than 201, first: " << submitters.unexpected().front();
    acked.insert(acked.end(), submitters.acks().begin(), submitters.acks().end());
    const std::vector<PodProcess> stale = pod_processes(data / "run");
    const size_t stale_alive = count_alive(stale);
    stale_alive_total += stale_alive;

    const std::string restarted = server.start(kAllotdFlags);
    ASSERT_TRUE(restarted.empty()) << restarted;
    port = server.port();
    const std::unique_ptr<httplib::Client> http = client_for(port, server.admin_token());
    EXPECT_TRUE(poll_until(
        [&] {
          const httplib::Result ready = http->Get("/readyz");
          return ready && ready->status == 200;
        },
        10s));
    // The executor sent SIGKILL before allotd listened; most of these pods
    // would sleep on for hundreds of milliseconds on their own.
    EXPECT_TRUE(poll_until([&] { return count_alive(stale) == 0; }, 250ms))
        << count_alive(stale) << " pods of the killed allotd still run";
    // Usage first, while the requeued work runs again; the acknowledged
    // submits are read one by one after it (hundreds of GETs, seconds under
    // a sanitizer, long enough for every 0.3 s pod to finish).
    const int64_t running = expect_usage_matches(*http);
    gpus_seen_running += running;
    expect_acknowledged_exist(*http, acked);
    expect_unique(list_all(*http));
    std::cout << "[crash " << crash << " at "
              << std::chrono::duration_cast<milliseconds>(SteadyClock::now() - began).count()
              << " ms] killed after " << submitters.acknowledged() << " of " << kill_after
              << " acknowledged submits, " << submitters.failed()
              << " submits failed in flight or after; " << stale.size() << " pid files, "
              << stale_alive << " pods of the killed process alive at the restart; " << running
              << " GPUs in use at the checked quiet moment" << std::endl;
  }

  // Everything finishes: requeued work runs again; nothing stays allocated.
  const std::unique_ptr<httplib::Client> http = client_for(port, server.admin_token());
  EXPECT_TRUE(poll_until(
      [&] {
        const json page =
            get_json(*http, "/api/v1/workloads?limit=1&phase=Pending,Admitted,Running,Preempted");
        return !page.is_discarded() && page.at("items").empty();
      },
      30s))
      << "workloads still unfinished 30 s after the last restart";
  std::cout << "[crash test] all finished at "
            << std::chrono::duration_cast<milliseconds>(SteadyClock::now() - began).count() << " ms"
            << std::endl;
  const std::vector<json> items = list_all(*http);
  expect_unique(items);
  expect_acknowledged_exist(*http, acked);
  size_t requeued = 0;
  for (const json& item : items) {
    EXPECT_EQ(item.at("status").at("phase"), "Succeeded") << key_of(item);
    requeued += item.at("status").at("restarts").get<int64_t>() > 0 ? 1 : 0;
    expect_admitted_once_per_run(*http, item);
  }
  EXPECT_EQ(expect_usage_matches(*http), 0);
  EXPECT_GT(stale_alive_total, 0u) << "no pod outlived its allotd: the stale-pod check proved "
                                      "nothing";
  EXPECT_GT(requeued, 0u) << "no workload was requeued by a restart";
  // Whether a quiet moment after a restart finds work running depends on the
  // machine's speed (every pod sleeps 0.3 or 1 s); over the three restarts
  // one must, or the usage checks compared nothing.
  EXPECT_GT(gpus_seen_running, 0) << "no GPU was in use at any quiet moment after a restart: "
                                     "the usage checks compared empty sets";
  // SIGTERM with this client's idle keep-alive connection still open.
  const auto terminating = SteadyClock::now();
  const ProcessExit exit = server.stop(5s);
  EXPECT_TRUE(exit.exited && exit.code == 0 && !exit.killed_after_deadline) << server.stderr_text();
  EXPECT_LT(SteadyClock::now() - terminating, 5s) << "SIGTERM took that long";
  std::cout << "[crash test] " << acked.size() << " acknowledged submits, " << items.size()
            << " workloads stored, " << requeued << " requeued by a restart; "
            << std::chrono::duration_cast<milliseconds>(SteadyClock::now() - began).count() << " ms"
            << std::endl;
}

}  // namespace
