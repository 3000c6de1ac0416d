// The usage report through a real allotd (issue 14): GET /api/v1/reports/usage
// reconciles (allocated + idle = capacity x time per flavor), prices with the
// flavor's rate card, shows a crash as missing data, refuses bad parameters
// with 400 naming the parameter, and `allot report usage` prints it as a
// table, CSV or JSON.
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "allotd_test.h"
#include "api/rfc3339.h"
#include "shell_command.h"

namespace allot::server_test {
namespace {

constexpr const char* kPricedFlavor = R"(apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
spec: {price: {currency: USD, gpuHour: 2.5, cpuHour: 0.1}}
)";

std::string wall_clock_now() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return format_rfc3339(
      Timestamp::from_millis(std::chrono::duration_cast<std::chrono::milliseconds>(now).count()));
}

class UsageReportTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    from_ = wall_clock_now();
    apply(kTestPolicy);
    apply(kPricedFlavor);
  }

  std::string query(const std::string& extra = "") const {
    return "/api/v1/reports/usage?from=" + from_ + "&to=2100-01-01T00:00:00Z" + extra;
  }

  // Runs the real `allot` with the administrator's token.
  std::pair<int, std::string> allot(const std::string& args) const {
    const std::string command =
        "ALLOT_CREDENTIALS=/nonexistent ALLOT_TOKEN=" + allotd_.admin_token() +
        " ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) + " " + ALLOT_CLI + " " +
        args;
    return run_shell(command);
  }

  std::string from_;
};

// allocated + idle (shared or not) == capacity, per flavor, in hours.
void expect_reconciles(const nlohmann::json& report) {
  ASSERT_FALSE(report["idle"]["flavors"].empty()) << report.dump();
  for (const auto& flavor : report["idle"]["flavors"]) {
    const double sum = flavor["allocatedGpuHours"].get<double>() +
                       flavor["idleGpuHours"].get<double>() +
                       flavor["sharedIdleGpuHours"].get<double>();
    EXPECT_NEAR(sum, flavor["capacityGpuHours"].get<double>(), 1e-9) << flavor.dump();
  }
}

TEST_F(UsageReportTest, ReportsPricedOwnUsageThatReconcilesWithIdleCapacity) {
  submit("research", "train", {.script = "exec sleep 1000", .gpus = 4, .pods = 1});
  wait_phase("research", "train", "Running");
  const Reply reply = api_.get(query("&by=team,flavor"));
  ASSERT_EQ(reply.status, 200) << reply.describe();
  const nlohmann::json& report = reply.json;
  EXPECT_EQ(report["currency"], "USD");
  ASSERT_EQ(report["rateCards"].size(), 1u) << report.dump();
  EXPECT_EQ(report["rateCards"][0]["gpuHour"], 2.5);
  EXPECT_EQ(report["contentHash"].get<std::string>().rfind("sha256:", 0), 0u);
  ASSERT_EQ(report["rows"].size(), 1u) << report.dump();
  const nlohmann::json& row = report["rows"][0];
  EXPECT_EQ(row["team"], "research");
  EXPECT_EQ(row["flavor"], "gpu");
  EXPECT_GT(row["gpuHours"].get<double>(), 0);
  EXPECT_EQ(row["ownGpuHours"], row["gpuHours"]);  // 4 of its 8 nominal: nothing borrowed
  EXPECT_EQ(row["borrowedGpuHours"], 0.0);
  EXPECT_NEAR(row["cost"].get<double>(), row["gpuHours"].get<double>() * 2.5, 1e-9);
  expect_reconciles(report);
}

TEST_F(UsageReportTest, ACrashIsShownAsMissingDataAndNothingIsCountedTwice) {
  submit("research", "train", {.script = "exec sleep 1000", .gpus = 4, .pods = 1});
  wait_phase("research", "train", "Running");
  allotd_.kill();
  ASSERT_EQ(allotd_.start(), "");
  const Reply reply = api_.get(query());
  ASSERT_EQ(reply.status, 200) << reply.describe();
  ASSERT_EQ(reply.json["missingData"].size(), 1u) << reply.json.dump();
  expect_reconciles(reply.json);
}

TEST_F(UsageReportTest, BadParametersAre400NamingTheParameter) {
  const Reply by = api_.get(query("&by=tenant"));
  EXPECT_EQ(by.status, 400) << by.describe();
  EXPECT_NE(by.body.find("by"), std::string::npos) << by.body;
  const Reply idle = api_.get(query("&idle=shared"));
  EXPECT_EQ(idle.status, 400) << idle.describe();
  const Reply no_from = api_.get("/api/v1/reports/usage?to=2100-01-01T00:00:00Z");
  EXPECT_EQ(no_from.status, 400) << no_from.describe();
  const Reply user_shared = api_.get(query("&by=user&idle=share-even"));
  EXPECT_EQ(user_shared.status, 400) << user_shared.describe();
}

// The local backend keeps no accounting of its own: nothing to set beside
// allot's figures (Slurm's comparison: slurm_metering_test.cc).
TEST_F(UsageReportTest, TheBackendComparisonOnTheLocalBackendIs409SayingWhy) {
  const Reply reply =
      api_.get("/api/v1/reports/usage/backend?from=" + from_ + "&to=2100-01-01T00:00:00Z");
  EXPECT_EQ(reply.status, 409) << reply.describe();
  EXPECT_NE(reply.body.find("keeps no accounting of its own"), std::string::npos) << reply.body;
  const Reply no_to = api_.get("/api/v1/reports/usage/backend?from=" + from_);
  EXPECT_EQ(no_to.status, 400) << no_to.describe();
  EXPECT_NE(no_to.body.find("to"), std::string::npos) << no_to.body;
}

TEST_F(UsageReportTest, TheCliPrintsATableCsvAndJson) {
  submit("research", "train", {.script = "exec sleep 1000", .gpus = 4, .pods = 1});
  wait_phase("research", "train", "Running");
  const std::string period = "--from " + from_ + " --to 2100-01-01T00:00:00Z";
  const auto [table_code, table] = allot("report usage " + period);
  EXPECT_EQ(table_code, 0) << table;
  EXPECT_NE(table.find("research"), std::string::npos) << table;
  EXPECT_NE(table.find("TOTAL"), std::string::npos) << table;
  EXPECT_NE(table.find("content hash sha256:"), std::string::npos) << table;
  // This allotd measures no GPU (no NVML): efficiency is "not measured", never 0.
  EXPECT_NE(table.find("GPU UTIL"), std::string::npos) << table;
  EXPECT_NE(table.find("not measured"), std::string::npos) << table;
  const auto [csv_code, csv] = allot("report usage " + period + " --by team,flavor -o csv");
  EXPECT_EQ(csv_code, 0) << csv;
  EXPECT_EQ(csv.rfind("team,flavor,gpuHours,ownGpuHours,borrowedGpuHours", 0), 0u) << csv;
  EXPECT_NE(csv.find("\nresearch,gpu,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",currency,measuredGpuHours,gpuUtilization\n"), std::string::npos) << csv;
  const auto [json_code, usage_json] = allot("report usage " + period + " -o json");
  EXPECT_EQ(json_code, 0) << usage_json;
  const nlohmann::json parsed = nlohmann::json::parse(usage_json, nullptr, false);
  EXPECT_TRUE(parsed.contains("contentHash")) << usage_json;
  ASSERT_FALSE(parsed["rows"].empty()) << usage_json;
  EXPECT_TRUE(parsed["rows"][0]["gpuUtilization"].is_null()) << usage_json;
  EXPECT_TRUE(parsed["rows"][0]["measuredGpuHours"].is_null()) << usage_json;
  const auto [bad_code, bad] = allot("report usage " + period + " --by tenant");
  EXPECT_NE(bad_code, 0) << bad;
  // No contract holds namespace research: its work is the row without a project.
  const auto [project_code, by_project] =
      allot("report usage " + period + " --by project,team -o csv");
  EXPECT_EQ(project_code, 0) << by_project;
  EXPECT_EQ(by_project.rfind("project,team,gpuHours,", 0), 0u) << by_project;
  EXPECT_NE(by_project.find("\n,research,"), std::string::npos) << by_project;
}

}  // namespace
}  // namespace allot::server_test
