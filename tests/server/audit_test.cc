// The audit log of a real allotd (docs/governance.md): what is recorded, the
// routes that read it, and `allot audit verify|log` on its files.
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <sys/wait.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

struct CliRun {
  int exit_code = -1;
  std::string output;
};

class AuditTest : public AllotdTest {
 protected:
  CliRun allot(const std::string& args) const {
    const std::string command =
        "ALLOT_CREDENTIALS=" + shell_quote((allotd_.temp_dir() / "cred.json").string()) +
        " ALLOT_TOKEN=" + shell_quote(allotd_.admin_token()) +
        " ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) + " " + ALLOT_CLI + " " +
        args + " 2>&1";
    CliRun run;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    size_t got = 0;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
      run.output.append(buffer.data(), got);
    }
    const int status = ::pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }

  // The records of GET /api/v1/audit?QUERY.
  nlohmann::json records(const std::string& query) const {
    const Reply reply = api_.get("/api/v1/audit?" + query);
    EXPECT_EQ(reply.status, 200) << reply.describe();
    return reply.json.value("items", nlohmann::json::array());
  }

  [[nodiscard]] std::string data(const std::string& name) const {
    return (allotd_.data_dir() / name).string();
  }
};

bool has_record(const nlohmann::json& items, const std::string& verb, const std::string& user,
                int code) {
  for (const nlohmann::json& item : items) {
    if (item.value("verb", "") == verb && item["user"].value("username", "") == user &&
        item["responseStatus"].value("code", 0) == code) {
      return true;
    }
  }
  return false;
}

TEST_F(AuditTest, RequestsLoginsRefusalsAndAdmissionsAreRecordedAndServed) {
  apply(kTestPolicy);
  WorkloadSpec sleeper;
  sleeper.script = "sleep 60";
  submit("research", "train", sleeper);
  wait_phase("research", "train", "Running");
  ASSERT_EQ(api_.post("/api/v1/namespaces/research/workloads/train/cancel").status, 200);
  const ApiHttp anonymous(allotd_, "");
  EXPECT_EQ(anonymous.post("/api/v1/namespaces/research/workloads", "{}").status, 401);
  const ApiHttp forged(allotd_, "allot_not-a-token");
  EXPECT_EQ(forged.get("/api/v1/workloads").status, 401);
  const Reply login = anonymous.post_json("/api/v1/sessions", {{"token", allotd_.admin_token()}});
  EXPECT_EQ(login.status, 201) << login.describe();

  nlohmann::json items;
  ASSERT_TRUE(eventually([&] {
    items = records("limit=1000");
    return has_record(items, "admit", "system:allotd", 200);
  })) << items.dump();
  EXPECT_TRUE(has_record(items, "create", "admin", 200)) << "apply";
  EXPECT_TRUE(has_record(items, "create", "admin", 201)) << "submit and login";
  EXPECT_TRUE(has_record(items, "cancel", "admin", 200));
  EXPECT_TRUE(has_record(items, "create", "system:anonymous", 401));
  EXPECT_TRUE(has_record(items, "list", "system:anonymous", 401));
  for (const nlohmann::json& item : items) {
    EXPECT_EQ(item.value("apiVersion", ""), "audit.k8s.io/v1");
    if (item["user"].value("username", "") != "system:allotd") {
      EXPECT_EQ(item["sourceIPs"], nlohmann::json::array({"127.0.0.1"})) << item.dump();
    }
    EXPECT_EQ(item.dump().find(allotd_.admin_token()), std::string::npos) << "a token leaked";
  }
  // Filters.
  const nlohmann::json cancels = records("verb=cancel&namespace=research");
  ASSERT_EQ(cancels.size(), 1u);
  EXPECT_EQ(cancels[0]["objectRef"].value("name", ""), "train");
  EXPECT_TRUE(records("user=nobody").empty());
  EXPECT_EQ(api_.get("/api/v1/audit?since=yesterday").status, 400);
}

TEST_F(AuditTest, TheKeyIsOwnerOnlyServedAndNeverLogged) {
  struct stat info {};
  ASSERT_EQ(::stat(data("audit-key").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  std::ifstream pub_file(data("audit-key.pub"));
  std::string pub;
  pub_file >> pub;
  const Reply key = api_.get("/api/v1/audit/key");
  ASSERT_EQ(key.status, 200) << key.describe();
  EXPECT_EQ(key.json.value("publicKey", ""), pub);
  EXPECT_EQ(key.json.value("algorithm", ""), "Ed25519");
  EXPECT_NE(allotd_.stderr_text().find(pub), std::string::npos) << "printed at start";
  std::ifstream secret_file(data("audit-key"));
  std::string secret;
  secret_file >> secret;
  ASSERT_EQ(secret.size(), 128u);
  EXPECT_EQ(allotd_.stderr_text().find(secret.substr(0, 64)), std::string::npos);
}

TEST_F(AuditTest, OnlyClusterAdminsReadTheAuditLog) {
  apply(kTestPolicy);
  const Reply created =
      api_.post_json("/api/v1/namespaces/research/serviceaccounts", {{"name", "bot"}});
  ASSERT_EQ(created.status, 201) << created.describe();
  const Reply issued = api_.post_json("/api/v1/namespaces/research/serviceaccounts/bot/tokens",
                                      nlohmann::json::object());
  ASSERT_EQ(issued.status, 201) << issued.describe();
  const ApiHttp bot(allotd_, issued.json.value("token", ""));
  EXPECT_EQ(bot.get("/api/v1/audit").status, 403);
  const nlohmann::json denied = records("user=system:serviceaccount:research:bot");
  EXPECT_TRUE(has_record(denied, "list", "system:serviceaccount:research:bot", 403))
      << denied.dump();
  EXPECT_TRUE(has_record(records("limit=100"), "create", "admin", 201)) << "the token issue";
}

TEST_F(AuditTest, AllotAuditVerifyChecksTheFilesOfAStoppedAllotd) {
  apply(kTestPolicy);
  submit("research", "one");
  EXPECT_EQ(allot("audit log --verb create").exit_code, 0);
  const ProcessExit exit = allotd_.stop();
  ASSERT_TRUE(exit.exited && exit.code == 0);
  const std::string dir = data("audit");
  const CliRun verified = allot("audit verify --dir " + shell_quote(dir));
  EXPECT_EQ(verified.exit_code, 0) << verified.output;
  EXPECT_NE(verified.output.find("audit log verified"), std::string::npos) << verified.output;
  EXPECT_NE(verified.output.find("0 records at the tail not yet covered"), std::string::npos)
      << verified.output;
  // Tamper with the first record: verify names it and fails.
  const std::string file = dir + "/audit-000001.jsonl";
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  std::string changed = text.str();
  changed.replace(changed.find("\"admin\""), 7, "\"admiN\"");
  std::ofstream(file, std::ios::trunc) << changed;
  const CliRun tampered = allot("audit verify --dir " + shell_quote(dir) + " -o json");
  EXPECT_EQ(tampered.exit_code, 1) << tampered.output;
  const nlohmann::json report = nlohmann::json::parse(tampered.output, nullptr, false);
  ASSERT_TRUE(report.is_object()) << tampered.output;
  EXPECT_FALSE(report.value("verified", true));
  EXPECT_EQ(report["problems"][0].value("kind", ""), "modified");
  EXPECT_EQ(report["problems"][0].value("file", ""), file);
  // Put it back, so that the fixture's own check of the log passes.
  std::ofstream(file, std::ios::trunc) << text.str();
}

// A request whose path decodes to bytes that are not UTF-8 (%FF%FE: a raw
// byte in the target itself is refused before any route, unaudited, by the
// target's parser) is recorded with each such byte of its object's name as
// U+FFFD, so that its line is valid JSON: served by GET /api/v1/audit, kept
// over a kill -9 and a restart, and verified. (A committed request's outbox
// row with such bytes, and its recovery after a kill -9:
// AuditOutboxSqlite/Postgres.InvalidUtf8RequestIsRecordedAndRecoveredFromItsRow.)
TEST_F(AuditTest, APathThatIsNotUtf8IsRecordedAsValidJsonAndVerifies) {
  apply(kTestPolicy);
  const Reply refused = api_.del("/api/v1/namespaces/research/workloads/%FF%FE");
  EXPECT_EQ(refused.status / 100, 4) << refused.describe();
  submit("research", "after");  // a committed request after it, carried by the outbox
  const auto count_records = [&] {
    size_t found = 0;
    for (const nlohmann::json& item : records("verb=delete&limit=1000")) {
      if (item["objectRef"].value("name", "") != "\uFFFD\uFFFD") continue;
      ++found;
      EXPECT_EQ(item.value("requestURI", ""), "/api/v1/namespaces/research/workloads/%FF%FE");
      EXPECT_EQ(item["responseStatus"].value("code", 0), refused.status) << item.dump();
    }
    return found;
  };
  EXPECT_EQ(count_records(), 1u);
  const ProcessExit killed = allotd_.kill();
  EXPECT_FALSE(killed.exited);
  ASSERT_EQ(allotd_.start(), "") << allotd_.stderr_text();
  EXPECT_EQ(count_records(), 1u) << "after a kill -9 and a restart";
  EXPECT_TRUE(workload("research", "after").is_object());
  const ProcessExit exit = allotd_.stop();
  ASSERT_TRUE(exit.exited && exit.code == 0);
  const CliRun verified = allot("audit verify --dir " + shell_quote(data("audit")));
  EXPECT_EQ(verified.exit_code, 0) << verified.output;
  ASSERT_EQ(allotd_.start(), "") << allotd_.stderr_text();
}

}  // namespace
}  // namespace allot::server_test
