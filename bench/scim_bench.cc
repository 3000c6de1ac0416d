#include "bench/scim_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "bench/percentile.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

using json = nlohmann::json;
using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kStartLimit{120'000};
constexpr const char* kToken = "allot-bench-scim-token-7d1e0c";
constexpr const char* kScimType = "application/scim+json";

double ms_since(SteadyClock::time_point start) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
}

std::unique_ptr<httplib::Client> client(int port) {
  auto http = std::make_unique<httplib::Client>("127.0.0.1", port);
  http->set_keep_alive(true);
  // As the api bench: cpp-httplib writes a request's header and body apart,
  // and without TCP_NODELAY the body waits for the header's delayed ACK
  // (40 ms a request, which the bench would then measure instead of allotd).
  http->set_tcp_nodelay(true);
  http->set_bearer_token_auth(kToken);
  http->set_read_timeout(std::chrono::seconds(300));
  http->set_write_timeout(std::chrono::seconds(300));
  return http;
}

// POSTs `count` bodies made by `body(i)` to `path` from `clients` threads;
// the ids answered, in order of i, and each request's latency. Empty error on success.
std::string post_all(int port, int32_t clients, int32_t count, const std::string& path,
                     const std::function<json(int32_t)>& body, std::vector<std::string>& ids,
                     std::vector<double>& latencies) {
  ids.assign(static_cast<size_t>(count), "");
  latencies.assign(static_cast<size_t>(count), 0);
  std::atomic<int32_t> next{0};
  std::mutex mu;
  std::string error;
  std::vector<std::thread> threads;
  for (int32_t c = 0; c < clients; ++c) {
    threads.emplace_back([&] {
      const auto http = client(port);
      for (int32_t i = next++; i < count; i = next++) {
        const SteadyClock::time_point start = SteadyClock::now();
        const httplib::Result res = http->Post(path, body(i).dump(), kScimType);
        latencies[static_cast<size_t>(i)] = ms_since(start);
        if (!res || res->status != 201) {
          std::lock_guard lock(mu);
          error = path + " answered " +
                  (res ? std::to_string(res->status) + " " + res->body
                       : httplib::to_string(res.error()));
          next = count;
          return;
        }
        ids[static_cast<size_t>(i)] = json::parse(res->body).value("id", "");
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return error;
}

// p50 of `runs` GETs of `path`; -1 when one is not 200.
double get_p50(int port, const std::string& path, int runs) {
  const auto http = client(port);
  std::vector<double> latencies;
  for (int i = 0; i < runs; ++i) {
    const SteadyClock::time_point start = SteadyClock::now();
    const httplib::Result res = http->Get(path);
    if (!res || res->status != 200) return -1;
    latencies.push_back(ms_since(start));
  }
  return percentile(latencies, 50);
}

// One PATCH adding `members` users to `group` (Entra's form), checked, then
// the membership check and a page of users timed.
std::string patch_members(const ScimBenchConfig& config, int port,
                          const std::vector<std::string>& users, const std::string& group_id,
                          ScimBenchReport& report, std::FILE* log) {
  json members = json::array();
  for (int32_t i = 0; i < config.members && i < config.users; ++i) {
    members.push_back({{"value", users[static_cast<size_t>(i)]}});
  }
  const std::string patch =
      json{{"schemas", {"urn:ietf:params:scim:api:messages:2.0:PatchOp"}},
           {"Operations", {{{"op", "Add"}, {"path", "members"}, {"value", members}}}}}
          .dump();
  report.patch_body_bytes = static_cast<int64_t>(patch.size());
  std::fprintf(log, "PATCH one group with %zu members (%zu bytes)\n", members.size(), patch.size());
  const auto http = client(port);
  const SteadyClock::time_point start = SteadyClock::now();
  const httplib::Result res = http->Patch("/scim/v2/Groups/" + group_id, patch, kScimType);
  report.patch_ms = ms_since(start);
  if (!res || res->status != 200) {
    return "the membership PATCH answered " +
           (res ? std::to_string(res->status) + " " + res->body : httplib::to_string(res.error()));
  }
  const httplib::Result group = http->Get("/scim/v2/Groups/" + group_id);
  if (group && group->status == 200) {
    report.members_after =
        static_cast<int64_t>(json::parse(group->body).value("members", json::array()).size());
  }
  const std::string check = "id eq \"" + group_id + "\" and members[value eq \"" + users[0] + "\"]";
  report.member_check_p50_ms = get_p50(port,
                                       "/scim/v2/Groups?excludedAttributes=members&filter=" +
                                           httplib::detail::encode_query_param(check),
                                       50);
  const std::string middle = std::to_string(std::max(1, config.users / 2));
  report.user_page_p50_ms = get_p50(port, "/scim/v2/Users?startIndex=" + middle + "&count=100", 50);
  return {};
}

std::string provision(const ScimBenchConfig& config, int port, ScimBenchReport& report,
                      std::FILE* log) {
  std::vector<std::string> users;
  std::vector<double> latencies;
  std::fprintf(log, "POST %d users from %d clients\n", config.users, config.clients);
  SteadyClock::time_point start = SteadyClock::now();
  std::string error = post_all(
      port, config.clients, config.users, "/scim/v2/Users",
      [](int32_t i) {
        const std::string name = "user" + std::to_string(i) + "@bench.example";
        return json{{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:User"}},
                    {"userName", name},
                    {"active", true},
                    {"displayName", "User " + std::to_string(i)},
                    {"emails", {{{"primary", true}, {"type", "work"}, {"value", name}}}}};
      },
      users, latencies);
  if (!error.empty()) return error;
  report.users_s = ms_since(start) / 1000;
  report.users_per_s = config.users / report.users_s;
  report.user_p50_ms = percentile(latencies, 50);
  report.user_p99_ms = percentile(latencies, 99);
  std::vector<std::string> groups;
  std::fprintf(log, "POST %d groups\n", config.groups);
  start = SteadyClock::now();
  error = post_all(
      port, config.clients, config.groups, "/scim/v2/Groups",
      [](int32_t i) {
        return json{{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:Group"}},
                    {"displayName", "group-" + std::to_string(i)},
                    {"members", json::array()}};
      },
      groups, latencies);
  if (!error.empty()) return error;
  report.groups_s = ms_since(start) / 1000;
  report.group_p50_ms = percentile(latencies, 50);
  report.group_p99_ms = percentile(latencies, 99);
  return patch_members(config, port, users, groups.front(), report, log);
}

// Exec to /readyz 200 on the same data.
std::string restart(tools::AllotdChild& allotd, ScimBenchReport& report) {
  allotd.stop(milliseconds(30'000));
  if (std::string error = allotd.start(kStartLimit); !error.empty()) return error;
  httplib::Client http("127.0.0.1", allotd.port());
  while (true) {
    const httplib::Result res = http.Get("/readyz");
    if (res && res->status == 200) break;
    if (SteadyClock::now() - allotd.started_at() > kStartLimit) return "not ready in time";
    std::this_thread::sleep_for(milliseconds(5));
  }
  report.restart_ready_s =
      std::chrono::duration<double>(SteadyClock::now() - allotd.started_at()).count();
  return {};
}

}  // namespace

ScimBenchReport run_scim_bench(const ScimBenchConfig& config, std::FILE* log) {
  ScimBenchReport report;
  report.config = config;
  const std::filesystem::path work =
      std::filesystem::temp_directory_path() / ("allot-scim-bench-" + std::to_string(getpid()));
  std::filesystem::create_directories(work);
  std::ofstream(work / "scim-token") << kToken << "\n";
  {
    tools::AllotdChild allotd({config.allotd,
                               (work / "data").string(),
                               "127.0.0.1:0",
                               (work / "allotd.err").string(),
                               {"--no-cgroups", "--threads", std::to_string(config.allotd_threads),
                                "--scim-token-file", (work / "scim-token").string()}});
    if (std::string error = allotd.start(kStartLimit); !error.empty()) {
      report.error = "allotd did not start: " + error;
    } else {
      std::fprintf(log, "allotd %d on port %d (SQLite store)\n", allotd.pid(), allotd.port());
      report.error = provision(config, allotd.port(), report, log);
      if (report.error.empty()) report.error = restart(allotd, report);
      allotd.stop(milliseconds(30'000));
    }
  }
  tools::remove_host_accounts(config.allotd, (work / "data").string(), log);
  std::error_code ignored;
  std::filesystem::remove_all(work, ignored);
  return report;
}

std::string scim_bench_json(const ScimBenchReport& r) {
  const json out = {{"users", r.config.users},
                    {"groups", r.config.groups},
                    {"members", r.config.members},
                    {"clients", r.config.clients},
                    {"error", r.error},
                    {"users_s", r.users_s},
                    {"users_per_s", r.users_per_s},
                    {"user_post_p50_ms", r.user_p50_ms},
                    {"user_post_p99_ms", r.user_p99_ms},
                    {"groups_s", r.groups_s},
                    {"group_post_p50_ms", r.group_p50_ms},
                    {"group_post_p99_ms", r.group_p99_ms},
                    {"patch_body_bytes", r.patch_body_bytes},
                    {"membership_patch_ms", r.patch_ms},
                    {"members_after", r.members_after},
                    {"member_check_p50_ms", r.member_check_p50_ms},
                    {"user_page_p50_ms", r.user_page_p50_ms},
                    {"restart_ready_s", r.restart_ready_s}};
  return out.dump(2) + "\n";
}

std::string scim_bench_text(const ScimBenchReport& r) {
  char text[2048];
  std::snprintf(
      text, sizeof(text),
      "users provisioned     %d in %.2f s (%.0f/s durable), POST p50 %.2f ms, p99 %.2f ms\n"
      "groups provisioned    %d in %.2f s, POST p50 %.2f ms, p99 %.2f ms\n"
      "membership PATCH      %d members in one request (%lld bytes): %.1f ms; %lld members "
      "after\n"
      "membership check      p50 %.2f ms (id eq G and members[value eq U])\n"
      "page of 100 users     p50 %.2f ms\n"
      "restart               %.2f s from exec to /readyz with the directory loaded\n",
      r.config.users, r.users_s, r.users_per_s, r.user_p50_ms, r.user_p99_ms, r.config.groups,
      r.groups_s, r.group_p50_ms, r.group_p99_ms, r.config.members,
      static_cast<long long>(r.patch_body_bytes), r.patch_ms,
      static_cast<long long>(r.members_after), r.member_check_p50_ms, r.user_page_p50_ms,
      r.restart_ready_s);
  std::string out = text;
  if (!r.error.empty()) out += "error: " + r.error + "\n";
  return out;
}

}  // namespace allot::bench
