// Issue 10: allotd on a shared PostgreSQL store, a leader and a standby on
// one data folder (docs/postgres.md). The standby answers as one until the
// leader dies, then takes over with everything the leader acknowledged; a
// leader that loses its lock without dying exits, as its next commit is
// refused (fencing) or its leadership watch notices, whichever comes first. The
// conninfo's password and the workloads' environment values stay out of
// every log. A fresh database per test on the real server that ctest starts.
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_process.h"
#include "allotd_test.h"
#include "api_http.h"
#include "store/postgres/pg_connection.h"
#include "store/postgres_test_database.h"

namespace allot::server_test {
namespace {

using store_test::PostgresTestDatabase;

// The tests' server trusts its socket, so a password is ignored, but allotd
// must still keep it out of its logs and answers; likewise the secret value.
constexpr const char* kPasswordCanary = "allot-canary-secret-pg-3b9e";
constexpr const char* kEnvCanary = "allot-canary-secret-env-51c2";

class FailoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<PostgresTestDatabase> database = PostgresTestDatabase::create();
    ASSERT_TRUE(database.ok()) << database.status().to_string();
    database_.emplace(std::move(database).value());
  }

  std::vector<std::string> flags(const std::string& name) const {
    return {"--store",       database_->conninfo() + " password=" + kPasswordCanary,
            "--leader-name", name,
            "--log-level",   "debug"};
  }

  static bool ready(const ApiHttp& api) { return api.get("/readyz").status == 200; }

  static std::string standby_reason(const ApiHttp& api) {
    const Reply reply = api.get("/readyz");
    if (reply.status != 503 || reply.json.value("status", "") != "standby") return "";
    return reply.json.value("reason", "");
  }

  static void submit(const ApiHttp& api, const std::string& name) {
    nlohmann::json workload = workload_json(name, {.script = "sleep 600", .gpus = 1});
    workload["spec"]["env"] = {{"API_TOKEN", kEnvCanary}};
    const Reply reply = api.post_json("/api/v1/namespaces/research/workloads", workload);
    ASSERT_EQ(reply.status, 201) << reply.status;
  }

  static std::set<std::string> names(const ApiHttp& api) {
    const Reply reply = api.get("/api/v1/namespaces/research/workloads");
    std::set<std::string> names;
    if (reply.status != 200) return names;
    for (const auto& item : reply.json["items"]) names.insert(item["metadata"]["name"]);
    return names;
  }

  static void expect_no_secret(const AllotdProcess& allotd, const std::string& who) {
    const std::string log = allotd.stderr_text();
    EXPECT_EQ(log.find(kPasswordCanary), std::string::npos) << who << " logged the password";
    EXPECT_EQ(log.find(kEnvCanary), std::string::npos) << who << " logged an env value";
  }

  // allotd `a` leads (ready, the test policy applied), `b` stands by on the
  // same data folder.
  void start_leader_and_standby() {
    ASSERT_EQ(a_.start(flags("a")), "");
    ASSERT_TRUE(eventually([&] { return ready(api_a_); }));
    ASSERT_EQ(b_.start(flags("b")), "");
    ASSERT_EQ(api_a_.post("/api/v1/apply", kTestPolicy).status, 200);
  }

  std::optional<PostgresTestDatabase> database_;
  AllotdProcess a_;
  AllotdProcess b_{a_.data_dir()};  // destroyed first: a_ holds the folder
  const ApiHttp api_a_{a_};
  const ApiHttp api_b_{b_};
};

TEST_F(FailoverTest, TheStandbyTakesOverFromAKilledLeaderWithNothingLost) {
  start_leader_and_standby();
  EXPECT_NE(standby_reason(api_b_).find("the leader is a"), std::string::npos);
  EXPECT_EQ(api_b_.get("/api/v1/workloads").status, 503) << "a standby serves no API";
  for (const char* name : {"w1", "w2", "w3"}) submit(api_a_, name);
  ASSERT_EQ(api_a_.del("/api/v1/namespaces/research/workloads/w2").status / 100, 2);

  a_.kill();

  ASSERT_TRUE(eventually([&] { return ready(api_b_); }, std::chrono::seconds(20)))
      << b_.stderr_text();
  EXPECT_EQ(names(api_b_), (std::set<std::string>{"w1", "w3"}));
  submit(api_b_, "w4");
  ASSERT_EQ(a_.start(flags("a")), "") << "the killed leader comes back";
  EXPECT_TRUE(eventually([&] { return !standby_reason(api_a_).empty(); }));
  EXPECT_NE(standby_reason(api_a_).find("the leader is b"), std::string::npos);
  EXPECT_EQ(names(api_b_), (std::set<std::string>{"w1", "w3", "w4"}));
  expect_no_secret(a_, "the first leader");
  expect_no_secret(b_, "the standby");
  EXPECT_EQ(api_b_.get("/readyz").body.find(kPasswordCanary), std::string::npos);
}

TEST_F(FailoverTest, ALeaderThatLosesItsLockExitsAndTheStandbyTakesOver) {
  start_leader_and_standby();
  submit(api_a_, "before");

  // A partition as PostgreSQL sees it: the leader's lock session ends, the
  // process lives.
  Result<PgConnection> admin = PgConnection::connect(database_->conninfo());
  ASSERT_TRUE(admin.ok()) << admin.status().to_string();
  ASSERT_TRUE(admin
                  ->execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_locks "
                            "WHERE locktype = 'advisory' AND granted AND database = "
                            "(SELECT oid FROM pg_database WHERE datname = current_database())")
                  .ok());

  ASSERT_TRUE(eventually([&] { return !process_alive(a_.pid()); }, std::chrono::seconds(20)))
      << "the deposed leader still runs";
  // Whichever sees it first ends the process: the leadership watch (exit 3)
  // or the fenced commit of the control plane's next decision (exit 70).
  const ProcessExit exit = a_.stop();
  EXPECT_TRUE(exit.exited && (exit.code == 3 || exit.code == 70)) << "exit code " << exit.code;
  const std::string log = a_.stderr_text();
  EXPECT_TRUE(log.find("lost the leadership") != std::string::npos ||
              log.find("no longer the leader") != std::string::npos)
      << log;
  ASSERT_TRUE(eventually([&] { return ready(api_b_); }, std::chrono::seconds(20)));
  EXPECT_EQ(names(api_b_), (std::set<std::string>{"before"}));
  expect_no_secret(a_, "the deposed leader");
  expect_no_secret(b_, "the new leader");
}

}  // namespace
}  // namespace allot::server_test
