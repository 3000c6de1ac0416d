// GET /api/v1/top/stats through a real allotd (issue 16, the Teams view):
// exact admission wait percentiles from the workloads' own timestamps, the
// scheduler's fair share of a borrowing team by hand (2 borrowed of the
// cohort's 12: 166.67), usage over time whose lending balances the
// borrowing, 400 for a bad range, and another team's waits and series
// hidden from a member of one team (its fair share is top's aggregate).
// GET /api/v1/top/hardware (the Hardware view's chart): the GPUs allocated
// and free per bucket, as aggregates naming no team or workload, to those
// who may list nodes only, with the time allotd was down (a restart) as
// missing data, as /top/stats has it.
// Each team's quota line (nominal, and nominal + borrowing limit when set).
// GET /api/v1/top/workloads (the Tasks chart): pending and running per
// bucket, equal to the workloads' own timestamps, filtered exactly like the
// workload list; a workload preempted and requeued is pending again from
// the release of its GPUs (bucket by bucket, also after a restart); GET
// /api/v1/top/signals to those who may list signals.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"
#include "api/rfc3339.h"
#include "identity/credentials/api_token.h"
#include "store/sqlite/sqlite_store.h"

namespace allot::server_test {
namespace {

std::string stats_binding(const std::string& ns, const std::string& user, const std::string& role) {
  return "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: " + user +
         ", namespace: " + ns + "}\nsubjects: [{kind: User, name: " + user +
         "}]\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: " + role +
         "}\n";
}

int64_t millis_of(const nlohmann::json& text) {
  const Result<Timestamp> at = parse_rfc3339(text.get<std::string>());
  EXPECT_TRUE(at.ok()) << text;
  return at.ok() ? at->ms() : 0;
}

const nlohmann::json& team_row(const nlohmann::json& stats, const std::string& team) {
  for (const nlohmann::json& row : stats["teams"]) {
    if (row["team"] == team) return row;
  }
  ADD_FAILURE() << "no row for " << team << " in " << stats.dump();
  static const nlohmann::json kNone;
  return kNone;
}

class TeamStatsTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
  }

  // Stops allotd, stores an API token for each user, starts allotd again.
  void issue_stats_tokens(const std::vector<std::string>& users) {
    const ProcessExit exit = allotd_.stop();
    ASSERT_TRUE(exit.exited && exit.code == 0);
    {
      Result<std::unique_ptr<SqliteStore>> store =
          SqliteStore::open((allotd_.data_dir() / "allot.db").string());
      ASSERT_TRUE(store.ok()) << store.status().to_string();
      WriteBatch batch;
      for (const std::string& user : users) {
        identity::IssuedApiToken issued =
            identity::issue_api_token(user, user, {}, Timestamp::from_millis(1'800'000'000'000));
        batch.put_objects.push_back(
            {"ApiToken", issued.record.id, identity::api_token_record_json(issued.record).dump()});
        tokens_[user] = issued.token;
      }
      ASSERT_TRUE((*store)->commit(std::move(batch)).ok());
    }
    ASSERT_EQ(allotd_.start(), "");
  }

  Reply get_as(const std::string& user, const std::string& path) const {
    httplib::Client http("127.0.0.1", allotd_.port());
    http.set_read_timeout(std::chrono::seconds(30));
    http.set_bearer_token_auth(tokens_.at(user));
    httplib::Result res = http.Get(path);
    Reply reply;
    if (!res) return reply;
    reply.status = res->status;
    reply.body = res->body;
    reply.json = nlohmann::json::parse(res->body, nullptr, false);
    return reply;
  }

  // The seconds each named research workload waited for its first admission.
  std::vector<double> research_waits(const std::vector<std::string>& names) {
    std::vector<double> waits;
    for (const std::string& name : names) {
      const nlohmann::json status = workload("research", name)["status"];
      waits.push_back(static_cast<double>(millis_of(status["firstAdmittedAt"]) -
                                          millis_of(status["createdAt"])) /
                      1000.0);
    }
    std::sort(waits.begin(), waits.end());
    return waits;
  }

  std::map<std::string, std::string> tokens_;
};

TEST_F(TeamStatsTest, WaitPercentilesFairShareAndSeriesOfABorrowingTeam) {
  submit("research", "w1", {.script = "true", .gpus = 1});
  wait_phase("research", "w1", "Succeeded");
  submit("research", "w2", {.script = "true", .gpus = 1});
  wait_phase("research", "w2", "Succeeded");
  // 10 GPUs: research's 8 and 2 borrowed from prod (cohort org holds 12).
  submit("research", "big", {.script = "exec sleep 1000", .gpus = 2, .pods = 5});
  wait_phase("research", "big", "Running");

  const Reply reply = api_.get("/api/v1/top/stats?range=1h");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  const nlohmann::json& stats = reply.json;
  EXPECT_EQ(stats["range"], "1h");
  EXPECT_EQ(stats["bucketSeconds"], 60);
  EXPECT_EQ(millis_of(stats["to"]) - millis_of(stats["from"]), 3'600'000);
  EXPECT_EQ(stats["fairSharing"], false);

  const nlohmann::json& research = team_row(stats, "research");
  const nlohmann::json& prod = team_row(stats, "prod");
  // Nearest rank of 3 waits: p50 the second, p90 and p99 the third.
  const std::vector<double> waits = research_waits({"w1", "w2", "big"});
  EXPECT_EQ(research["wait"]["admitted"], 3) << research.dump();
  EXPECT_DOUBLE_EQ(research["wait"]["p50"].get<double>(), waits[1]);
  EXPECT_DOUBLE_EQ(research["wait"]["p90"].get<double>(), waits[2]);
  EXPECT_DOUBLE_EQ(research["wait"]["p99"].get<double>(), waits[2]);
  EXPECT_EQ(prod["wait"]["admitted"], 0);

  // Borrowed 2 of what cohort org could lend it (12), x1000, weight 1.
  EXPECT_EQ(research["cohort"], "org");
  EXPECT_DOUBLE_EQ(research["fairShare"]["weight"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(research["fairShare"]["share"].get<double>(), 1000.0 * 2 / 12);
  EXPECT_DOUBLE_EQ(research["fairShare"]["dominant"].get<double>(), 2.0 / 12);
  EXPECT_DOUBLE_EQ(prod["fairShare"]["share"].get<double>(), 0.0);

  // 60 minutes; the cohort lends exactly what it borrows (prod idles 4 >= 2).
  ASSERT_EQ(research["series"].size(), 60u) << research.dump();
  ASSERT_EQ(prod["series"].size(), 60u);
  double borrowed = 0;
  for (size_t i = 0; i < 60; ++i) {
    const nlohmann::json& r = research["series"][i];
    const nlohmann::json& p = prod["series"][i];
    EXPECT_EQ(millis_of(r["start"]), millis_of(stats["from"]) + static_cast<int64_t>(i) * 60'000);
    EXPECT_NEAR(r["lent"].get<double>() + p["lent"].get<double>(),
                r["borrowed"].get<double>() + p["borrowed"].get<double>(), 1e-9);
    EXPECT_LE(r["gpus"].get<double>(), 10.0 + 1e-9);
    EXPECT_LE(r["borrowed"].get<double>(), 2.0 + 1e-9);
    EXPECT_DOUBLE_EQ(p["gpus"].get<double>(), 0.0);
    borrowed += r["borrowed"].get<double>();
  }
  EXPECT_GT(borrowed, 0.0) << research.dump();
  EXPECT_GT(research["series"][59]["gpus"].get<double>(), 0.0) << research.dump();
}

TEST_F(TeamStatsTest, ABadRangeIs400NamingIt) {
  const Reply reply = api_.get("/api/v1/top/stats?range=2h");
  EXPECT_EQ(reply.status, 400) << reply.describe();
  EXPECT_NE(reply.body.find("range"), std::string::npos) << reply.body;
  for (const char* range : {"1h", "24h", "7d", "30d"}) {
    const Reply good = api_.get(std::string("/api/v1/top/stats?range=") + range);
    EXPECT_EQ(good.status, 200) << good.describe();
  }
  const Reply day = api_.get("/api/v1/top/stats?range=7d");
  EXPECT_EQ(day.json["bucketSeconds"], 6 * 3600);
  EXPECT_EQ(team_row(day.json, "prod")["series"].size(), 28u);
}

TEST_F(TeamStatsTest, AnotherTeamsWaitsAndSeriesAreHiddenItsFairShareIsNot) {
  issue_stats_tokens({"pete", "nobody"});
  apply(stats_binding("prod", "pete", "team-member"));
  submit("research", "big", {.script = "exec sleep 1000", .gpus = 2, .pods = 5});
  wait_phase("research", "big", "Running");
  const Reply reply = get_as("pete", "/api/v1/top/stats?range=24h");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  const nlohmann::json& research = team_row(reply.json, "research");
  const nlohmann::json& prod = team_row(reply.json, "prod");
  EXPECT_TRUE(research["wait"].is_null()) << research.dump();
  EXPECT_TRUE(research["series"].is_null()) << research.dump();
  EXPECT_DOUBLE_EQ(research["fairShare"]["share"].get<double>(), 1000.0 * 2 / 12);
  EXPECT_EQ(prod["wait"]["admitted"], 0) << prod.dump();
  ASSERT_EQ(prod["series"].size(), 24u) << prod.dump();
  // prod lends what research borrows: its own series shows it.
  EXPECT_GT(prod["series"][23]["lent"].get<double>(), 0.0) << prod.dump();
  EXPECT_EQ(reply.body.find("big"), std::string::npos) << reply.body;
  EXPECT_EQ(get_as("nobody", "/api/v1/top/stats").status, 403);
}

constexpr const char* kNodeLister = R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: node-lister}
rules: [{apiGroups: [allot], resources: [nodes], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: olga-lists-nodes}
subjects: [{kind: User, name: olga}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-lister}
)";

TEST_F(TeamStatsTest, HardwareOverTimeIsAnAggregateForThoseWhoMayListNodes) {
  issue_stats_tokens({"olga", "pete"});
  apply(kNodeLister);
  apply(stats_binding("prod", "pete", "team-member"));
  submit("research", "big", {.script = "exec sleep 1000", .gpus = 2, .pods = 5});
  wait_phase("research", "big", "Running");

  const Reply reply = get_as("olga", "/api/v1/top/hardware?range=1h");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  const nlohmann::json& hw = reply.json;
  EXPECT_EQ(hw["range"], "1h");
  EXPECT_EQ(hw["bucketSeconds"], 60);
  EXPECT_EQ(hw["gpus"], 12);  // 3 nodes of 4
  // issue_stats_tokens() restarted allotd: the time it was down is missing data.
  ASSERT_EQ(hw["missingData"].size(), 1u) << hw.dump();
  const int64_t down_from = millis_of(hw["missingData"][0]["from"]);
  const int64_t down_to = millis_of(hw["missingData"][0]["to"]);
  EXPECT_LT(down_from, down_to);
  ASSERT_EQ(hw["buckets"].size(), 60u) << hw.dump();
  double allocated = 0;
  double missing = 0;
  for (size_t i = 0; i < 60; ++i) {
    const nlohmann::json& b = hw["buckets"][i];
    EXPECT_EQ(millis_of(b["start"]), millis_of(hw["from"]) + static_cast<int64_t>(i) * 60'000);
    // Means over the minute: never more than the 10 held, nor than the 12 there are.
    EXPECT_LE(b["allocated"].get<double>(), 10.0 + 1e-9) << b.dump();
    EXPECT_LE(b["allocated"].get<double>() + b["free"].get<double>(), 12.0 + 1e-9) << b.dump();
    EXPECT_DOUBLE_EQ(b["unhealthy"].get<double>(), 0.0);
    EXPECT_TRUE(b["utilization"].is_null()) << b.dump();  // no GPU measured here
    allocated += b["allocated"].get<double>();
    missing += b["missing"].get<double>() * 60'000;
  }
  EXPECT_NEAR(missing, static_cast<double>(down_to - down_from), 1.0);
  EXPECT_GT(hw["buckets"][59]["allocated"].get<double>(), 0.0) << hw.dump();
  EXPECT_GT(allocated, 0.0);
  // Aggregates only: the body names no team and no workload.
  EXPECT_EQ(reply.body.find("research"), std::string::npos) << reply.body;
  EXPECT_EQ(reply.body.find("big"), std::string::npos) << reply.body;
  // A team member who may not list nodes sees no Hardware chart; a bad range is 400.
  EXPECT_EQ(get_as("pete", "/api/v1/top/hardware").status, 403);
  EXPECT_EQ(api_.get("/api/v1/top/hardware?range=2d").status, 400);
  EXPECT_EQ(api_.get("/api/v1/top/hardware?range=30d").json["buckets"].size(), 30u);
  // The Teams chart says where data is missing too.
  EXPECT_EQ(api_.get("/api/v1/top/stats").json["missingData"], hw["missingData"]);
}

constexpr const char* kProdMayBorrowTwo = R"(apiVersion: allot/v1
kind: Team
metadata: {name: prod}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 4, borrowingLimit: 2}}}]
  preemption: {reclaimWithinCohort: Any, withinTeam: LowerPriority}
)";

TEST_F(TeamStatsTest, EachTeamsQuotaLineIsItsNominalAndCeilingNow) {
  apply(kProdMayBorrowTwo);
  const Reply reply = api_.get("/api/v1/top/stats?range=1h");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  EXPECT_EQ(team_row(reply.json, "research")["nominalGpus"], 8);
  EXPECT_TRUE(team_row(reply.json, "research")["ceilingGpus"].is_null());  // no borrowing limit
  EXPECT_EQ(team_row(reply.json, "prod")["nominalGpus"], 4);
  EXPECT_EQ(team_row(reply.json, "prod")["ceilingGpus"], 6);
  // As it was at each bucket's end (quotaSeries): the last is the quota now;
  // the first, before this allotd recorded any, is not known (null).
  const nlohmann::json& series = team_row(reply.json, "prod")["quotaSeries"];
  ASSERT_EQ(series.size(), 60u) << reply.describe();
  EXPECT_EQ(millis_of(series[0]["start"]), millis_of(reply.json["from"]));
  EXPECT_EQ(series[59]["nominalGpus"], 4) << series[59];
  EXPECT_EQ(series[59]["ceilingGpus"], 6) << series[59];
  EXPECT_TRUE(series[0]["nominalGpus"].is_null()) << series[0];
  const nlohmann::json& research = team_row(reply.json, "research")["quotaSeries"];
  EXPECT_EQ(research[59]["nominalGpus"], 8);
  EXPECT_TRUE(research[59]["ceilingGpus"].is_null());  // no borrowing limit
}

double sum_of(const nlohmann::json& buckets, const char* key) {
  double sum = 0;
  for (const nlohmann::json& b : buckets) sum += b[key].get<double>();
  return sum;
}

TEST_F(TeamStatsTest, WorkloadsPendingAndRunningOverTimeAsTheListShowsThem) {
  issue_stats_tokens({"pete", "nobody"});
  apply(stats_binding("prod", "pete", "team-member"));
  submit("research", "big", {.script = "exec sleep 1000", .gpus = 2, .pods = 5});
  wait_phase("research", "big", "Running");
  submit("research", "waiting", {.script = "true", .gpus = 4});  // 2 of 12 are free
  const Reply reply = api_.get("/api/v1/top/workloads?range=1h");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  const nlohmann::json& stats = reply.json;
  EXPECT_EQ(stats["range"], "1h");
  EXPECT_EQ(stats["bucketSeconds"], 60);
  ASSERT_EQ(stats["buckets"].size(), 60u) << stats.dump();
  EXPECT_EQ(millis_of(stats["buckets"][1]["start"]) - millis_of(stats["from"]), 60'000);
  ASSERT_EQ(workload("research", "waiting")["status"]["phase"], "Pending");
  // The means times the minute add up to the workloads' own times in the range.
  const nlohmann::json big = workload("research", "big")["status"];
  const nlohmann::json waiting = workload("research", "waiting")["status"];
  const int64_t to = millis_of(stats["to"]);
  const double running_ms = static_cast<double>(to - millis_of(big["firstAdmittedAt"]));
  const double pending_ms =
      static_cast<double>(millis_of(big["firstAdmittedAt"]) - millis_of(big["createdAt"]) + to -
                          millis_of(waiting["createdAt"]));
  EXPECT_NEAR(sum_of(stats["buckets"], "running") * 60'000, running_ms, 1e-3);
  EXPECT_NEAR(sum_of(stats["buckets"], "pending") * 60'000, pending_ms, 1e-3);
  EXPECT_GT(stats["buckets"][59]["running"].get<double>(), 0.0);
  EXPECT_GT(stats["buckets"][59]["pending"].get<double>(), 0.0);
  // Filtered like the list: `team`, `namespace`.
  EXPECT_EQ(sum_of(api_.get("/api/v1/top/workloads?range=1h&team=prod").json["buckets"], "running"),
            0.0);
  EXPECT_EQ(api_.get("/api/v1/top/workloads?range=24h&namespace=research").json["buckets"].size(),
            24u);
  // A member of prod sees none of research's (the list shows it none); asking
  // for research's namespace is refused as the list is; nobody sees nothing.
  const Reply pete = get_as("pete", "/api/v1/top/workloads?range=1h");
  ASSERT_EQ(pete.status, 200) << pete.describe();
  EXPECT_EQ(sum_of(pete.json["buckets"], "running") + sum_of(pete.json["buckets"], "pending"), 0.0);
  EXPECT_EQ(pete.body.find("research"), std::string::npos) << pete.body;
  EXPECT_EQ(get_as("pete", "/api/v1/workloads").json["items"].size(), 0u);
  EXPECT_EQ(get_as("pete", "/api/v1/top/workloads?namespace=research").status, 403);
  EXPECT_EQ(get_as("pete", "/api/v1/namespaces/research/workloads").status, 403);
  const Reply nobody = get_as("nobody", "/api/v1/top/workloads?range=1h");
  EXPECT_EQ(sum_of(nobody.json["buckets"], "running"), 0.0) << nobody.describe();
  EXPECT_EQ(api_.get("/api/v1/top/workloads?range=2h").status, 400);
}

// The time of `ns/name`'s first event with `reason`, in ms; 0 when none.
int64_t event_millis(const ApiHttp& api, const std::string& ns, const std::string& name,
                     const std::string& reason) {
  const Reply events = api.get("/api/v1/namespaces/" + ns + "/workloads/" + name + "/events");
  for (const nlohmann::json& event : events.json["items"]) {
    if (event["reason"] == reason) return millis_of(event["time"]);
  }
  ADD_FAILURE() << "no " << reason << " event: " << events.body;
  return 0;
}

double overlap_minutes(int64_t from, int64_t to, int64_t lo, int64_t hi) {
  return static_cast<double>(std::max<int64_t>(0, std::min(to, hi) - std::max(from, lo))) /
         60'000.0;
}

TEST_F(TeamStatsTest, ARequeuedWorkloadIsPendingAgainFromTheReleaseOfItsGpus) {
  // research borrows prod's 4 with a gang over all 12 GPUs; prod reclaims
  // them at a higher priority: the gang is preempted and waits (8 are free).
  submit("research", "sweep", {.script = "exec sleep 1000", .gpus = 4, .pods = 3});
  wait_phase("research", "sweep", "Running");
  submit("prod", "urgent", {.script = "exec sleep 1000", .gpus = 4, .pods = 1, .priority = "high"});
  wait_until(
      "research", "sweep",
      [](const nlohmann::json& w) { return w["status"].value("restarts", 0) == 1; },
      "a preemption");
  wait_phase("prod", "urgent", "Running");
  const nlohmann::json sweep = workload("research", "sweep")["status"];
  ASSERT_TRUE(phase_of(workload("research", "sweep")) == "Preempted" ||
              phase_of(workload("research", "sweep")) == "Pending")
      << sweep;
  const int64_t created = millis_of(sweep["createdAt"]);
  const int64_t admitted = millis_of(sweep["firstAdmittedAt"]);
  const int64_t stopping = event_millis(api_, "research", "sweep", "Preempting");
  const int64_t requeued = event_millis(api_, "research", "sweep", "Preempted");
  double running_before = 0;
  for (int round = 0; round < 2; ++round) {
    const Reply reply = api_.get("/api/v1/top/workloads?range=1h&namespace=research");
    ASSERT_EQ(reply.status, 200) << reply.describe();
    const nlohmann::json& buckets = reply.json["buckets"];
    const int64_t to = millis_of(reply.json["to"]);
    const double running = sum_of(buckets, "running") * 60'000;
    // Always one of the two, never both; the run ends when its GPUs are
    // released: between the preemption and the requeue.
    EXPECT_NEAR(running + sum_of(buckets, "pending") * 60'000, static_cast<double>(to - created),
                1e-3);
    const auto released = admitted + static_cast<int64_t>(std::llround(running));
    EXPECT_GE(released, stopping);
    EXPECT_LE(released, requeued);
    for (size_t i = 0; i < buckets.size(); ++i) {
      const int64_t lo = millis_of(buckets[i]["start"]);
      const int64_t hi = lo + 60'000;
      EXPECT_NEAR(buckets[i]["running"].get<double>(), overlap_minutes(admitted, released, lo, hi),
                  1e-6)
          << "bucket " << i;
      EXPECT_NEAR(
          buckets[i]["pending"].get<double>(),
          overlap_minutes(created, admitted, lo, hi) + overlap_minutes(released, to, lo, hi), 1e-6)
          << "bucket " << i;
    }
    EXPECT_GT(sum_of(buckets, "pending") * 60'000, static_cast<double>(to - released) - 1e-3);
    if (round == 0) {
      running_before = running;
      // Rebuilt from the stored workloads and the ledger at startup.
      const ProcessExit exit = allotd_.stop();
      ASSERT_TRUE(exit.exited && exit.code == 0);
      ASSERT_EQ(allotd_.start(), "");
    } else {
      EXPECT_NEAR(running, running_before, 1e-3);
    }
  }
}

TEST_F(TeamStatsTest, SignalsFiringOverTimeToThoseWhoMayListSignals) {
  issue_stats_tokens({"nobody"});
  const Reply reply = api_.get("/api/v1/top/signals?range=7d");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  ASSERT_EQ(reply.json["buckets"].size(), 28u) << reply.describe();
  EXPECT_EQ(sum_of(reply.json["buckets"], "firing"), 0.0);  // no signal here
  EXPECT_EQ(get_as("nobody", "/api/v1/top/signals").status, 403);
  EXPECT_EQ(get_as("nobody", "/api/v1/signals").status, 403);
}

}  // namespace
}  // namespace allot::server_test
