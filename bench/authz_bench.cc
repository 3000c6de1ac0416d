// allot-authz-bench: Google Benchmark microbenchmarks of authz's Authorizer
// at the scale of issue 11: 1,000 teams (namespaces), 10,000 RoleBindings
// and 50 groups per caller; the goal is authorize() p99 <= 2 us.
//
// The organisation: team tNNNN binds team-admin, team-member and team-viewer
// to its groups tNNNN-admins, -members, -viewers, and 7 more roles to single
// users (10 RoleBindings a team); 10,000 users, each in 50 groups: 20 team
// groups at random and 30 directory groups no binding names (as a directory
// sync brings them). Requests: half in one of the caller's teams' namespaces,
// half in a random namespace; verbs and resources from authz's catalog; so
// both allows (with their why) and denials (with theirs) are measured.
//
// Method: Google Benchmark's mean per call comes from the loop as usual; in
// the *_latency variants each call is also timed on its own with
// steady_clock (UseManualTime), and the counters p50_ns, p99_ns and p999_ns
// are the percentiles of those single-call times, which include one
// clock read (clock_ns reports its cost, measured the same way around
// nothing). Run with the release preset:
//   cmake --preset release && cmake --build build/release -j2 --target allot-authz-bench
//   ./build/release/bench/allot-authz-bench
#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "authz/authorizer.h"
#include "authz/builtin_roles.h"
#include "authz/resource_catalog.h"

namespace allot::bench {
namespace {

constexpr int kTeams = 1'000;
constexpr int kUserBindingsPerTeam = 7;  // + 3 group bindings = 10 a team, 10,000 in all
constexpr int kUsers = 10'000;
constexpr int kTeamGroupsPerUser = 20;
constexpr int kDirectoryGroupsPerUser = 30;  // 50 groups per user
constexpr int kRequests = 1 << 16;
constexpr uint64_t kSeed = 11;

std::string team_name(int team) {
  std::string digits = std::to_string(team);
  return "t" + std::string(4 - digits.size(), '0') + digits;
}

struct Org {
  RbacPolicy policy;
  std::vector<Principal> users;
  std::vector<std::vector<int>> teams_of;  // per user
};

RoleBinding binding(const std::string& ns, std::string name, std::string_view role,
                    Subject subject) {
  return {{std::move(name), ns, {}},
          {std::move(subject)},
          {RoleRefKind::kClusterRole, std::string(role)}};
}

Org make_org() {
  Org org;
  org.policy = with_builtin_roles({});
  std::mt19937_64 rng(kSeed);
  std::uniform_int_distribution<int> any_team(0, kTeams - 1);
  std::uniform_int_distribution<int> any_user(0, kUsers - 1);
  const std::string_view roles[] = {kTeamAdmin, kTeamMember, kTeamViewer};
  for (int t = 0; t < kTeams; ++t) {
    const std::string ns = team_name(t);
    for (int r = 0; r < 3; ++r) {
      const std::string suffix = r == 0 ? "-admins" : r == 1 ? "-members" : "-viewers";
      org.policy.role_bindings.push_back(
          binding(ns, std::string(roles[r]), roles[r], {SubjectKind::kGroup, ns + suffix, {}}));
    }
    for (int u = 0; u < kUserBindingsPerTeam; ++u) {
      org.policy.role_bindings.push_back(
          binding(ns, "user-" + std::to_string(u), roles[u % 3],
                  {SubjectKind::kUser, "user-" + std::to_string(any_user(rng)), {}}));
    }
  }
  org.teams_of.resize(kUsers);
  for (int u = 0; u < kUsers; ++u) {
    Principal user = Principal::user("user-" + std::to_string(u));
    for (int g = 0; g < kTeamGroupsPerUser; ++g) {
      const int team = any_team(rng);
      org.teams_of[u].push_back(team);
      const char* suffix = g % 3 == 0 ? "-admins" : g % 3 == 1 ? "-members" : "-viewers";
      user.groups.push_back(team_name(team) + suffix);
    }
    for (int g = 0; g < kDirectoryGroupsPerUser; ++g) {
      user.groups.push_back("directory-group-" + std::to_string(any_user(rng)));
    }
    org.users.push_back(std::move(user));
  }
  return org;
}

struct Ask {
  int user;
  std::string verb;
  std::string resource;
  std::string ns;
  std::string name;
};

std::vector<Ask> make_asks(const Org& org) {
  std::mt19937_64 rng(kSeed + 1);
  std::uniform_int_distribution<int> any_user(0, kUsers - 1);
  std::uniform_int_distribution<int> any_team(0, kTeams - 1);
  const auto verbs = allot_verbs();
  std::vector<const ResourceInfo*> namespaced;
  for (const ResourceInfo& resource : allot_resources()) {
    if (resource.namespaced) namespaced.push_back(&resource);
  }
  std::uniform_int_distribution<size_t> any_verb(0, verbs.size() - 1);
  std::uniform_int_distribution<size_t> any_resource(0, namespaced.size() - 1);
  std::uniform_int_distribution<int> coin(0, 1);
  std::vector<Ask> asks;
  asks.reserve(kRequests);
  for (int i = 0; i < kRequests; ++i) {
    const int user = any_user(rng);
    const std::vector<int>& teams = org.teams_of[user];
    const int team = coin(rng) ? teams[static_cast<size_t>(i) % teams.size()] : any_team(rng);
    asks.push_back({user, std::string(verbs[any_verb(rng)]),
                    std::string(namespaced[any_resource(rng)]->name), team_name(team),
                    "job-" + std::to_string(i % 100)});
  }
  return asks;
}

struct Fixture {
  Org org = make_org();
  Authorizer authorizer{org.policy};
  std::vector<Ask> asks = make_asks(org);
  std::vector<Caller> callers;  // resolved once, per user

  Fixture() {
    callers.reserve(org.users.size());
    for (const Principal& user : org.users) callers.push_back(authorizer.resolve(user));
  }
};

const Fixture& fixture() {
  static const Fixture kFixture;  // built once, for every benchmark
  return kFixture;
}

AccessRequest request_of(const Ask& ask) {
  return {ask.verb, api_group_of(ask.resource), ask.resource, ask.ns, ask.name};
}

// Percentiles of single-call times, as counters.
void report(benchmark::State& state, std::vector<double>& nanos, int64_t allowed) {
  if (nanos.empty()) return;
  std::sort(nanos.begin(), nanos.end());
  auto at = [&](double q) { return nanos[static_cast<size_t>(q * double(nanos.size() - 1))]; };
  state.counters["p50_ns"] = at(0.50);
  state.counters["p99_ns"] = at(0.99);
  state.counters["p999_ns"] = at(0.999);
  state.counters["max_ns"] = nanos.back();
  state.counters["allowed_pct"] = 100.0 * double(allowed) / double(nanos.size());
}

using Clock = std::chrono::steady_clock;

double nanos_since(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::nano>(end - start).count();
}

// authorize(principal, verb, resource, namespace, name): resolves the
// caller's 50 groups every call, then decides and writes the why.
void authz_authorize_principal_latency(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<double> nanos;
  nanos.reserve(1 << 20);
  int64_t allowed = 0;
  size_t i = 0;
  for (auto _ : state) {
    const Ask& ask = f.asks[i++ % f.asks.size()];
    // A copy, as the server builds the caller of each request from its
    // token: its strings are in cache, as they would be.
    const Principal user = f.org.users[static_cast<size_t>(ask.user)];
    const auto start = Clock::now();
    Decision decision = f.authorizer.authorize(user, ask.verb, ask.resource, ask.ns, ask.name);
    const auto end = Clock::now();
    benchmark::DoNotOptimize(decision);
    allowed += decision.allowed ? 1 : 0;
    const double ns = nanos_since(start, end);
    state.SetIterationTime(ns * 1e-9);
    if (nanos.size() < nanos.capacity()) nanos.push_back(ns);
  }
  report(state, nanos, allowed);
}
BENCHMARK(authz_authorize_principal_latency)->UseManualTime()->Unit(benchmark::kNanosecond);

// authorize(caller, request) with the caller resolved once (a request that
// checks many objects, e.g. filtering a list), the why still written.
void authz_authorize_caller_latency(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<double> nanos;
  nanos.reserve(1 << 20);
  int64_t allowed = 0;
  size_t i = 0;
  for (auto _ : state) {
    const Ask& ask = f.asks[i++ % f.asks.size()];
    const AccessRequest request = request_of(ask);
    const Caller& caller = f.callers[static_cast<size_t>(ask.user)];
    const auto start = Clock::now();
    Decision decision = f.authorizer.authorize(caller, request);
    const auto end = Clock::now();
    benchmark::DoNotOptimize(decision);
    allowed += decision.allowed ? 1 : 0;
    const double ns = nanos_since(start, end);
    state.SetIterationTime(ns * 1e-9);
    if (nanos.size() < nanos.capacity()) nanos.push_back(ns);
  }
  report(state, nanos, allowed);
}
BENCHMARK(authz_authorize_caller_latency)->UseManualTime()->Unit(benchmark::kNanosecond);

// The same caller every time (its groups' slots stay in cache): the floor
// of the cost, as a long request that checks many objects sees it.
void authz_authorize_one_principal_latency(benchmark::State& state) {
  const Fixture& f = fixture();
  const Principal& user = f.org.users[0];
  std::vector<double> nanos;
  nanos.reserve(1 << 20);
  int64_t allowed = 0;
  size_t i = 0;
  for (auto _ : state) {
    const Ask& ask = f.asks[i++ % f.asks.size()];
    const auto start = Clock::now();
    Decision decision = f.authorizer.authorize(user, ask.verb, ask.resource, ask.ns, ask.name);
    const auto end = Clock::now();
    benchmark::DoNotOptimize(decision);
    allowed += decision.allowed ? 1 : 0;
    const double ns = nanos_since(start, end);
    state.SetIterationTime(ns * 1e-9);
    if (nanos.size() < nanos.capacity()) nanos.push_back(ns);
  }
  report(state, nanos, allowed);
}
BENCHMARK(authz_authorize_one_principal_latency)->UseManualTime()->Unit(benchmark::kNanosecond);

// The cost of one timed region with nothing in it: what every latency above includes.
void authz_clock_overhead(benchmark::State& state) {
  std::vector<double> nanos;
  nanos.reserve(1 << 20);
  for (auto _ : state) {
    const auto start = Clock::now();
    const auto end = Clock::now();
    const double ns = nanos_since(start, end);
    state.SetIterationTime(ns * 1e-9);
    if (nanos.size() < nanos.capacity()) nanos.push_back(ns);
  }
  report(state, nanos, 0);
}
BENCHMARK(authz_clock_overhead)->UseManualTime()->Unit(benchmark::kNanosecond);

// Plain Google Benchmark loops (mean time per call, no per-call clock).
void authz_authorize_principal(benchmark::State& state) {
  const Fixture& f = fixture();
  size_t i = 0;
  for (auto _ : state) {
    const Ask& ask = f.asks[i++ % f.asks.size()];
    benchmark::DoNotOptimize(f.authorizer.authorize(f.org.users[static_cast<size_t>(ask.user)],
                                                    ask.verb, ask.resource, ask.ns, ask.name));
  }
}
BENCHMARK(authz_authorize_principal);

void authz_resolve(benchmark::State& state) {
  const Fixture& f = fixture();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.authorizer.resolve(f.org.users[i++ % f.org.users.size()]));
  }
}
BENCHMARK(authz_resolve);

void authz_allows_caller(benchmark::State& state) {
  const Fixture& f = fixture();
  size_t i = 0;
  for (auto _ : state) {
    const Ask& ask = f.asks[i++ % f.asks.size()];
    benchmark::DoNotOptimize(
        f.authorizer.allows(f.callers[static_cast<size_t>(ask.user)], request_of(ask)));
  }
}
BENCHMARK(authz_allows_caller);

// Compiling the 10,000-binding policy into the index (once per RBAC change).
void authz_compile(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(Authorizer(f.org.policy));
}
BENCHMARK(authz_compile)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace allot::bench

BENCHMARK_MAIN();
